/** The engine's side of src/core/context/alert-port.ts: what `/array alert …` commands may ask, answered from the store. */
import type { AlertCommandPort } from "../core/context/alert-port.js";
import { keyPrefix } from "../store/keys.js";
import type { Store } from "../store/types.js";
import { alertKey, isClosed } from "./alert-model.js";
import { NS } from "./repo.js";
import type { Router } from "./router.js";
import { testCardMessage } from "./test-card.js";
import type { AlertChat, AlertRecord, Card } from "./types.js";

/** What `/array alert …` commands ask of the engine (src/core/context/alert-port.ts), answered from the store. */
export function commandPort(o: {
  store: Store;
  router: Router;
  chat: AlertChat;
  now: () => number;
  timeZone: string;
}): AlertCommandPort {
  const { store } = o;
  return {
    routesFor: (channel) => o.router.routesFor(channel),
    async postedIn(array, name) {
      const rec = await store.get<AlertRecord>(NS.alert, alertKey(array, name));
      if (!rec) return [];
      const cards = await store.getMany<Card>(NS.card, rec.cardIds);
      return [...cards.values()].flatMap((c) => (c.ref ? [c.ref] : []));
    },
    async alertsSince(array, since) {
      const list = await store.list<AlertRecord>(NS.alert, { prefix: keyPrefix(array) });
      return list.map((e) => e.value).filter((r) => !isClosed(r) || r.updated >= since);
    },
    async postTest(channel, requestedBy) {
      const ref = await o.chat.post(channel, testCardMessage(requestedBy, o.now(), o.timeZone));
      return { channelId: ref.channelId, ts: ref.ts };
    },
  };
}
