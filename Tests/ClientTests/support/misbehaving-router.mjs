// A router that misbehaves, for the dev server's tests: `hang` writes a manifest and never answers;
// `exit` writes a manifest, then exits with status 3 at the first message.
import { createInterface } from "node:readline";

const mode = process.argv[2];
process.stdout.write(`${JSON.stringify({ manifest: { channels: ["sdkReady"], features: {} } })}\n`);
createInterface({ input: process.stdin }).on("line", () => {
    if (mode === "exit") {
        process.stderr.write("misbehaving-router: giving up\n");
        process.exit(3);
    }
});
