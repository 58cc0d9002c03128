// docs/gateway-protocol.md §3.1 (an unknown id is `model_not_found` with close matches).
/** Edit distance, for "did you mean" lists. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `limit` ids close to `wanted`: same name after the prefix, containment, or a small edit distance. */
export function closeMatches(wanted: string, ids: readonly string[], limit = 5): string[] {
  const lower = wanted.toLowerCase();
  const tail = lower.slice(lower.lastIndexOf('/') + 1);
  const scored: { id: string; score: number }[] = [];
  for (const id of ids) {
    const candidate = id.toLowerCase();
    const candidateTail = candidate.slice(candidate.lastIndexOf('/') + 1);
    let score = editDistance(lower, candidate);
    if (
      (tail.length >= 3 && candidate.includes(tail)) ||
      (candidateTail.length >= 3 && lower.includes(candidateTail))
    ) {
      score = Math.min(score, 1);
    }
    if (score <= Math.max(2, Math.floor(lower.length / 3))) scored.push({ id, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((entry) => entry.id);
}

/** Ids for a message: the first `max`, then how many more; `none` for an empty list. */
export function listIds(ids: readonly string[], max = 10): string {
  if (ids.length === 0) return 'none';
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}
