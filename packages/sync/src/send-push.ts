import type { AppendOutcome, StreamHttp } from './stream-http'
import type { InflightPush } from './sync-state'

/**
 * Sends a push that was written down, as this device's idempotent producer: creates the stream when
 * it is missing, and when the server lost the producer's place (a sequence gap) or another writer
 * took its id (a stale epoch), starts a new epoch at seq 0 with the same body, written down first by
 * `renew`. If the first copy was stored after all, readers drop the repeat by id. At most three
 * requests and one renewal: no loop. Gives the outcome and the push as last sent.
 */
export async function sendPush(
  http: StreamHttp,
  url: string,
  deviceId: string,
  written: InflightPush,
  renew: (push: InflightPush) => Promise<void>,
): Promise<{ readonly outcome: AppendOutcome; readonly push: InflightPush }> {
  const send = async (push: InflightPush): Promise<AppendOutcome> => {
    const producer = { id: deviceId, epoch: push.epoch, seq: push.seq }
    const outcome = await http.append(url, push.body, producer)
    if (outcome.kind !== 'missing') return outcome
    await http.create(url)
    return http.append(url, push.body, producer)
  }
  const outcome = await send(written)
  if (outcome.kind !== 'sequence-gap' && outcome.kind !== 'stale-epoch') return { outcome, push: written }
  const push = { ...written, epoch: Math.max(written.epoch, outcome.kind === 'stale-epoch' ? outcome.currentEpoch : 0) + 1, seq: 0 }
  await renew(push)
  return { outcome: await send(push), push }
}
