import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { withTransaction } from '../../platform/transaction.js';
import { deliveries, destinations, toDelivery } from './repository.js';
import { insertRedelivery } from './delivery-repository.js';
import type { Delivery } from './schemas.js';

/** Sends an event again to the same destination as a new delivery with its own attempts. */
export async function redeliver({ ctx, deliveryId }: { ctx: RequestContext; deliveryId: string }): Promise<Delivery> {
  return withTransaction(ctx, async (tx) => {
    const original = await deliveries.get(tx, ctx, deliveryId);
    if (!original) throw notFound('webhook delivery', 'id');
    const dest = await destinations.get(tx, ctx, original.destination_id);
    if (!dest) throw conflict('The destination of this delivery was deleted.', 'id');
    const id = newId('delivery');
    await insertRedelivery(tx, id, deliveryId);
    await emitAudit(tx, ctx, {
      action: 'webhook_delivery.redelivered',
      resourceType: 'webhook_delivery',
      resourceId: id,
      metadata: { redelivery_of: deliveryId, event_id: original.event_id },
    });
    return toDelivery((await deliveries.get(tx, ctx, id))!, []);
  });
}

export async function sendTestEvent({
  ctx,
  destinationId,
}: {
  ctx: RequestContext;
  destinationId: string;
}): Promise<{ event_id: string; destination_id: string }> {
  return withTransaction(ctx, async (tx) => {
    const dest = await destinations.get(tx, ctx, destinationId);
    if (!dest) throw notFound('webhook destination', 'id');
    const ev = await enqueueEvent(tx, ctx, {
      type: 'webhook.test',
      resourceType: 'webhook_destination',
      resourceId: destinationId,
      destinationId,
      data: { destination_id: destinationId, message: 'This is a test event from Verity.' },
    });
    await emitAudit(tx, ctx, {
      action: 'webhook_destination.test_sent',
      resourceType: 'webhook_destination',
      resourceId: destinationId,
      metadata: { event_id: ev.id },
    });
    return { event_id: ev.id, destination_id: destinationId };
  });
}
