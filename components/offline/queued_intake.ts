import { type KeyedRequest, keyedRequest, sendKeyed, type SendResult } from "./keyed_send.ts";
import type { CreatedClient } from "../../src/clients/views.ts";

/** One consent record the intake sends after the client exists. */
export interface ConsentCall {
  type: "SMS" | "EMAIL";
  statement: string;
  target: string;
}

/**
 * A submitted intake as kept on the device until the server has all of it:
 * the client (one keyed request), then each consent with its own key. The
 * client's answer is kept as soon as it comes, so a consent sent again after
 * a reload has the same body (the client id) and the same key.
 */
export interface QueuedIntake {
  client: KeyedRequest;
  consents: Array<{ call: ConsentCall; key: string }>;
  created?: CreatedClient;
}

/** `storeCode`: the store whose intake page this is (/intake/{code}), signed out. */
export function queueIntake(
  payload: unknown,
  calls: ConsentCall[],
  storeCode?: string,
): QueuedIntake {
  const url = storeCode ? `/api/clients?store=${encodeURIComponent(storeCode)}` : "/api/clients";
  return {
    client: keyedRequest("POST", url, payload),
    consents: calls.map((call) => ({ call, key: crypto.randomUUID() })),
  };
}

/**
 * Sends what is left of the intake; `save` keeps each step's progress. A
 * refused consent is only logged, as before: the client exists whatever
 * happens to a consent record.
 */
export async function sendIntake(
  job: QueuedIntake,
  save: (job: QueuedIntake) => Promise<unknown>,
): Promise<SendResult<CreatedClient>> {
  if (!job.created) {
    const result = await sendKeyed<CreatedClient>(job.client);
    if (!result.sent) return result;
    job.created = result.value;
    await save(job);
  }
  const clientId = job.created.client.id;
  // A consent sent before (its answer lost, or the page reloaded) is sent
  // again with its key: the server answers it from the key, writing nothing.
  for (const consent of job.consents) {
    const result = await sendKeyed({
      method: "POST",
      url: "/api/consent",
      body: JSON.stringify({ clientId, ...consent.call, consentGiven: true }),
      key: consent.key,
    });
    if (!result.sent && result.again) return result;
    if (!result.sent) console.error(`Failed to record ${consent.call.type} consent`, result.error);
  }
  return { sent: true, value: job.created };
}
