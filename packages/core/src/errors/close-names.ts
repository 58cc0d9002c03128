// docs/gateway-protocol.md §3.1 (an unknown id is `model_not_found` with close matches; an unknown
// option is refused the same way, naming the closest known one).
/** Edit distance, for "did you mean" lists. */
function editDistance(a: string, b: string): number {
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

/**
 * Up to `limit` names close to `wanted`, closest first: same name after a `/` prefix, containment
 * (unless `containment` is false), or a small edit distance (case ignored). The one "did you mean"
 * search: model ids and option names.
 */
export function closeMatches(
  wanted: string,
  names: readonly string[],
  limit = 5,
  containment = true,
): string[] {
  const lower = wanted.toLowerCase();
  const tail = lower.slice(lower.lastIndexOf('/') + 1);
  const scored: { id: string; score: number }[] = [];
  for (const id of names) {
    const candidate = id.toLowerCase();
    const candidateTail = candidate.slice(candidate.lastIndexOf('/') + 1);
    let score = editDistance(lower, candidate);
    if (
      containment &&
      ((tail.length >= 3 && candidate.includes(tail)) ||
        (candidateTail.length >= 3 && lower.includes(candidateTail)))
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
