import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { withTransaction } from '../../platform/transaction.js';
import { validateDefinition } from './definition.js';
import { ensureDefaultJourneys, journeys, toJourney } from './repository.js';
import type { CreateJourney, Journey } from './schemas.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { mayPublish } from '../../platform/scopes.js';

const refuseUnlessPublisher = (ctx: RequestContext) => {
  if (!mayPublish(ctx, 'journeys:publish'))
    throw new AppError(
      'insufficient_scope',
      "This operator's role may draft journeys but not publish them (journeys:publish: the approver role).",
    );
};

/**
 * Adds a version of a journey in the key's environment: a draft, or published (new sessions start
 * on it; running sessions keep the version they pinned). Versions are never edited in place.
 */
export async function createJourneyVersion({ ctx, input }: { ctx: RequestContext; input: CreateJourney }): Promise<Journey> {
  const definition = validateDefinition(input.definition);
  if (input.publish) {
    refuseUnlessPublisher(ctx);
    // Maker-checker: an operator's own version is published by a second person.
    if (ctx.actor.type === 'operator')
      throw conflict('Maker-checker: save the version as a draft; another operator (an approver) publishes it.', 'publish');
  }
  await ensureDefaultJourneys(ctx.db, ctx);
  return withTransaction(ctx, async (tx) => {
    const j = await journeys.addVersion(tx, ctx, {
      key: input.key,
      name: input.name,
      definition,
      publish: input.publish ?? false,
      createdBy: `${ctx.actor.type}:${ctx.actor.id}`,
    });
    await emitAudit(tx, ctx, {
      action: input.publish ? 'journey.published' : 'journey.drafted',
      resourceType: 'journey',
      resourceId: j.id,
      metadata: { key: j.key, version: j.latest_version },
    });
    const versions = await journeys.versionsOf(tx, [j.id]);
    return toJourney(j, versions.get(j.id) ?? []);
  });
}

/** Publishes an existing version: new sessions start on it from now on (rolling back is publishing an older one). */
export async function publishJourneyVersion({
  ctx,
  key,
  version,
}: {
  ctx: RequestContext;
  key: string;
  version: number;
}): Promise<Journey> {
  refuseUnlessPublisher(ctx);
  await ensureDefaultJourneys(ctx.db, ctx);
  return withTransaction(ctx, async (tx) => {
    const before = await journeys.publishedVersion(tx, ctx, key);
    const j = await journeys.publish(tx, ctx, key, version);
    if (!j) throw notFound('journey version', before ? 'version' : 'key');
    const author = (await journeys.versionsOf(tx, [j.id])).get(j.id)?.find((v) => v.version === version)?.created_by;
    if (ctx.actor.type === 'operator' && author === `${ctx.actor.type}:${ctx.actor.id}`)
      throw conflict('Maker-checker: a journey version is published by an operator who did not write it.', 'version');
    await emitAudit(tx, ctx, {
      action: 'journey.published',
      resourceType: 'journey',
      resourceId: j.id,
      diff: { published_version: { before: before!.published_version, after: version } },
      metadata: { key, version },
    });
    const versions = await journeys.versionsOf(tx, [j.id]);
    return toJourney(j, versions.get(j.id) ?? []);
  });
}
