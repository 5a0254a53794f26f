// A list's new order as a drag posts it: ids joined by commas. Client-safe:
// the sortable list writes it, the pages' actions read it.

/** The separator of ids in a posted order. */
export const ORDER_SEPARATOR = ",";

/** The ids of a posted order, or null when it is not a list of row ids. */
export function parseOrder(text: string | undefined): number[] | null {
  if (!text || text.length > 20_000) return null;
  const ids = text.split(ORDER_SEPARATOR).map(Number);
  return ids.every((n) => Number.isSafeInteger(n) && n > 0 && n < 2 ** 31) ? ids : null;
}

/** True when `order` names each of `ids` exactly once. */
export function sameMembers(order: number[], ids: number[]): boolean {
  const known = new Set(ids);
  return order.length === ids.length && new Set(order).size === order.length && order.every((id) => known.has(id));
}

/** What a refused drag says: the list changed in another tab meanwhile. */
export const STALE_ORDER_MESSAGE =
  "Lista zmieniła się w innej karcie lub na innym urządzeniu. Nic nie przesunięto – spróbuj jeszcze raz.";
