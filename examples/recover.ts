// Failed tool calls reject with a ToolCallError the program can catch and recover from.
try {
  await tools.read_file({ path: "../outside-the-root.txt" });
} catch (error) {
  if (error instanceof ToolCallError) {
    console.log(`${error.toolName} refused: ${error.message}`);
  }
}
const { entries } = await tools.list_dir({});
return `the working directory has ${entries.length} entries`;
