import { QUEUES } from '../../platform/queues.js';
import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob } from '../../platform/jobs.js';
import { recordUsage } from '../../platform/usage.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { checks } from '../checks/index.js';
import { ensureDefaultJourneys, journeys, type PublishedJourney } from '../journeys/index.js';
import { sessions, toVerification } from './repository.js';
import { issueSessionToken } from './session-token.js';
import { sealSubjectFields } from './fields.js';
import { emptyFields } from '../checks/index.js';
import { sandboxOutcome, SANDBOX_SHORT_LIFETIME_SECONDS } from './sandbox.js';
import type { CreateVerification } from './schemas.js';

/**
 * Creates a session on the journey's published version (pinned with its definition), one pending
 * check per journey check, the token for the hosted flow and SDKs, and moves created →
 * awaiting_subject, all in one transaction (with the Idempotency-Key, audit and usage rows).
 */
export async function createVerification(args: {
  ctx: RequestContext;
  sealer: Sealer;
  hostedBaseUrl: string;
  input: CreateVerification;
  /** Writes of the caller that belong with the session (a business linking its person), in the same transaction. */
  within?: (tx: Queryable, sessionId: string) => Promise<void>;
}) {
  const { ctx, input } = args;
  await ensureDefaultJourneys(ctx.db, ctx);
  const unpublished = () => invalid('journey', `No journey "${input.journey}" is published in the ${ctx.environment} environment.`);
  // The published version as this process last read it (no round trip); the session's insert checks that it
  // is still the published one and, if another process has published since, it is read again in the transaction.
  const cached = await journeys.publishedCached(ctx.db, ctx, input.journey);
  if (!cached) throw unpublished();
  let journey: PublishedJourney = cached;
  const forced = sandboxOutcome(ctx.environment, input.subject.reference);
  const short = forced?.reaches === 'expired' || forced?.reaches === 'abandoned';
  const expiry = (j: PublishedJourney) =>
    new Date(Date.now() + 1000 * (short ? SANDBOX_SHORT_LIFETIME_SECONDS : j.definition.session_lifetime_seconds));
  let expiresAt = expiry(journey);
  const token = issueSessionToken();

  const { given_names, surname, date_of_birth } = input.subject;
  const fieldsSealed =
    given_names || surname || date_of_birth
      ? sealSubjectFields(args.sealer, {
          ...emptyFields(),
          given_names: given_names ?? null,
          surname: surname ?? null,
          date_of_birth: date_of_birth ?? null,
        })
      : null;

  return withTransaction(ctx, async (tx) => {
    const id = newId('session');
    // One round trip for the session (inserted already awaiting the subject, its transition's row with it);
    // the pending checks, usage, audit and stored response travel with the COMMIT.
    const insert = (j: PublishedJourney) =>
      sessions.insert(
        tx,
        ctx,
        {
          id,
          journeyKey: j.key,
          journeyVersion: j.version,
          definition: j.definition,
          subjectType: input.subject.type,
          subjectReference: input.subject.reference,
          subjectCountry: input.subject.country ?? null,
          redirectUrl: input.redirect_url ?? null,
          expiresAt,
          tokenHash: token.hash,
          // The token lives as long as the session waits on the subject, never longer.
          tokenExpiresAt: expiresAt,
          sandboxOutcome: forced?.reference ?? null,
          fieldsSealed,
        },
        'token_issued',
        { ifStillPublished: true },
      );
    let row = await insert(journey);
    if (!row) {
      // Another version was published (or the journey withdrawn) since this process cached it: read it again.
      journeys.forget(ctx, input.journey);
      const current = await journeys.publishedCached(tx, ctx, input.journey);
      if (!current) throw unpublished();
      journey = current;
      expiresAt = expiry(journey);
      row = await insert(journey);
      if (!row) throw unpublished();
    }
    const made = journey.definition.checks.map((c) => ({ id: newId('check'), type: c.type, status: 'pending' as const }));
    await checks.insertPending(
      tx,
      ctx,
      made.map((c) => ({ id: c.id, type: c.type, subjectReference: input.subject.reference, sessionId: id })),
    );
    if (args.within) await args.within(tx, id);
    await recordUsage(tx, ctx, 'verifications', 'session', id);
    await emitAudit(tx, ctx, {
      action: 'verification.created',
      resourceType: 'verification',
      resourceId: id,
      metadata: { journey: journey.key, journey_version: journey.version, sandbox_outcome: forced?.reference ?? null },
    });
    if (forced && forced.reaches !== 'expired') {
      await enqueueJob(
        tx,
        QUEUES.sandboxRun,
        { account_id: ctx.accountId, environment: ctx.environment, session_id: id },
        { dedupeKey: `sandbox_run:${id}` },
      );
    }
    const view = toVerification(
      row,
      made.map((c) => ({ id: c.id, session_id: id, type: c.type, status: c.status })),
      args.hostedBaseUrl,
    );
    return {
      ...view,
      hosted_url: `${view.hosted_url}?token=${token.token}`,
      session_token: token.token,
      session_token_expires_at: iso(expiresAt)!,
    };
  });
}
