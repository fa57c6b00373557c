// How old the sanctions list in force is, against CREDENCE_SANCTIONS_MAX_AGE_DAYS: said by readiness, the metrics,
// the admin status route and a warning at start, so an old list (the shipped 2024 snapshot) never passes as current.
/** How old the list in force is against CREDENCE_SANCTIONS_MAX_AGE_DAYS; null without a list. */
export function stalenessOf(publishedAt: Date | null, maxAgeDays: number, now = Date.now()) {
  if (!publishedAt) return { ageDays: null, maxAgeDays, stale: false, warning: null };
  const ageDays = Math.floor((now - publishedAt.getTime()) / 86_400_000);
  const stale = ageDays > maxAgeDays;
  return {
    ageDays,
    maxAgeDays,
    stale,
    warning: stale
      ? `The sanctions list in force was published ${publishedAt.toISOString().slice(0, 10)}, ${ageDays} days ago (older than CREDENCE_SANCTIONS_MAX_AGE_DAYS=${maxAgeDays}): ` +
        'import the current OFAC SDN list (POST /api/v1/compliance/sanctions/import, `credence sanctions import`, or CREDENCE_SANCTIONS_URL for a daily refresh).'
      : null,
  };
}
