/**
 * Forgetting: closed alerts older than `retention` (array time) are dropped with the cards that only showed
 * them, so the store does not grow for ever. Runs with the reconcile read, a few times an hour per array.
 */
import { keyPrefix } from "../store/keys.js";
import { alertKey, familyKey, isClosed } from "./alert-model.js";
import { type FamilyState, familyStateKey, NS, type UnitOfWork } from "./repo.js";
import type { AlertRecord, Card } from "./types.js";

export async function pruneArray(
  uow: UnitOfWork,
  array: string,
  arrayNow: number,
  retention: number,
): Promise<number> {
  const cutoff = arrayNow - retention;
  const all = await uow.store.list<AlertRecord>(NS.alert, { prefix: keyPrefix(array) });
  const old = all.filter((e) => isClosed(e.value) && e.value.updated < cutoff).map((e) => e.value);
  if (old.length === 0) return 0;
  const gone = new Set(old.map((r) => alertKey(r.array, r.name)));
  const cardIds = new Set(old.flatMap((r) => r.cardIds));
  for (const r of old) uow.delete(NS.alert, alertKey(r.array, r.name));
  for (const id of cardIds) {
    const card = await uow.get<Card>(NS.card, id);
    if (!card?.members.every((m) => gone.has(m))) continue;
    uow.delete(NS.card, id);
    uow.delete(NS.outbox, id);
    for (const r of old.filter((x) => card.members.includes(alertKey(x.array, x.name)))) {
      const fsKey = familyStateKey(card.channel, familyKey(r.array, r));
      const fs = await uow.get<FamilyState>(NS.family, fsKey);
      if (fs?.cardId === id) uow.delete(NS.family, fsKey);
    }
  }
  return old.length;
}
