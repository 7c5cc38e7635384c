import { QUEUES } from '../../platform/queues.js';
import type { RequestContext } from '../../platform/context.js';
import type { Queryable } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob } from '../../platform/jobs.js';
import { recordUsage } from '../../platform/usage.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import { checks } from '../checks/index.js';
import { ensureDefaultJourneys, isJourneyStale, journeys } from '../journeys/index.js';
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
  const forced = sandboxOutcome(ctx.environment, input.subject.reference);
  const short = forced?.reaches === 'expired' || forced?.reaches === 'abandoned';
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

  const creating = withTransaction(
    ctx,
    async (tx) => {
      // The published version as this process last read it (no round trip). The session's INSERT checks that it is
      // still the published one and raises if another process has published since: the transaction then rolls back,
      // the cached version is forgotten, and this runs again on the version read afresh (`retry` below).
      const journey = await journeys.publishedCached(tx, ctx, input.journey);
      if (!journey) throw unpublished();
      const expiresAt = new Date(
        Date.now() + 1000 * (short ? SANDBOX_SHORT_LIFETIME_SECONDS : journey.definition.session_lifetime_seconds),
      );
      const id = newId('session');
      // The session (inserted already awaiting the subject, its transition's row with it), its pending checks,
      // usage, audit and the stored response: one message to the database, with the COMMIT.
      const row = await sessions.insert(
        tx,
        ctx,
        {
          id,
          journeyKey: journey.key,
          journeyVersion: journey.version,
          definition: journey.definition,
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
    },
    {
      retry: {
        attempts: 3,
        when: (err) => {
          if (!isJourneyStale(err)) return false;
          journeys.forget(ctx, input.journey);
          return true;
        },
      },
    },
  );
  // Published again and again while this request ran: rare enough that the caller may simply retry.
  return creating.catch((err: unknown) => {
    if (isJourneyStale(err))
      throw conflict(`The journey "${input.journey}" was published anew while this session was created; retry the request.`, 'journey');
    throw err;
  });
}
