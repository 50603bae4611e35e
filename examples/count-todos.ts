// Count TODO, FIXME and XXX markers across the working directory, by file: one grep, then
// only the summary goes back to the model, not every matching line.
const { matches, total, truncated } = await tools.grep({
  pattern: "\\b(TODO|FIXME|XXX)\\b",
  max_matches: 2000,
});
const perFile = new Map<string, number>();
for (const match of matches) {
  perFile.set(match.path, (perFile.get(match.path) ?? 0) + 1);
}
const top = [...perFile.entries()]
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, 10);
console.log(`${total} markers in ${perFile.size} files${truncated ? " (counted the first 2000)" : ""}`);
for (const [path, count] of top) {
  console.log(`${String(count).padStart(5)}  ${path}`);
}
