// The ten longest Rust files by line count: one glob, then a read per file, overlapped with
// Promise.all (read_file is read-only, so the calls run in parallel up to the limit).
const { paths } = await tools.glob({ pattern: "*.rs" });
const sizes = await Promise.all(
  paths.map(async (path: string) => {
    const { total_lines } = await tools.read_file({ path, limit: 1 });
    return { path, lines: total_lines };
  }),
);
sizes.sort((a, b) => b.lines - a.lines || (a.path < b.path ? -1 : 1));
return sizes
  .slice(0, 10)
  .map((file) => `${String(file.lines).padStart(6)}  ${file.path}`)
  .join("\n");
