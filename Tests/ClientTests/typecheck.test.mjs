// `tsc --strict` over a page using the client: typecheck/page.ts must compile, and each
// typecheck/bad-*.ts must fail on exactly the lines marked `// error` (a wrong body, a reply
// used as another type, a misspelt channel, a wrong push body). Run against the hand-written
// sample declarations and against those `switchboard-cli client` generates.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { cliPath, repositoryRoot } from "./support/wire-handlers.mjs";

const here = resolve(repositoryRoot, "Tests/ClientTests/typecheck");
const runtimeDeclarations = resolve(repositoryRoot, "Client/switchboard-runtime.d.ts");
const pages = readdirSync(here).filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"));
const directories = [];
after(() => { for (const directory of directories) rmSync(directory, { recursive: true, force: true }); });

function tsc() {
    const found = spawnSync("sh", ["-c", "command -v tsc"], { encoding: "utf8" }).stdout.trim();
    assert.ok(found, "tsc is not installed: `apt-get install node-typescript` (Debian) or put tsc on PATH");
    return found;
}

/** A directory holding `switchboard.d.ts` (from `declarations`) and the pages. */
function workspace(declarations) {
    const directory = mkdtempSync(join(tmpdir(), "switchboard-tsc-"));
    directories.push(directory);
    writeFileSync(join(directory, "switchboard.d.ts"), declarations);
    for (const page of pages) copyFileSync(join(here, page), join(directory, page));
    return directory;
}

/** Compiles every page at once; returns tsc's output and, per page, the lines it reports errors on. */
function compile(directory) {
    const flags = ["--strict", "--noEmit", "--target", "ES2020", "--module", "ES2020", "--moduleResolution", "node",
        "--lib", "ES2020,DOM", ...pages];
    const run = spawnSync(tsc(), flags, { cwd: directory, encoding: "utf8" });
    const errors = new Map(pages.map((page) => [page, new Set()]));
    for (const match of run.stdout.matchAll(/^([\w.-]+\.ts)\((\d+),\d+\): error/gm)) {
        if (!errors.has(match[1])) errors.set(match[1], new Set());
        errors.get(match[1]).add(Number(match[2]));
    }
    const lines = (page) => [...(errors.get(page) ?? [])].sort((a, b) => a - b);
    return { output: run.stdout + run.stderr, lines };
}

const marked = (page) => readFileSync(join(here, page), "utf8").split("\n")
    .map((text, index) => (text.endsWith("// error") ? index + 1 : 0)).filter((line) => line > 0);

function checkPages(directory) {
    const { output, lines } = compile(directory);
    assert.deepEqual(lines("switchboard.d.ts"), [], `the declarations compile:\n${output}`);
    assert.deepEqual(lines("page.ts"), [], `page.ts must compile:\n${output}`);
    for (const page of pages.filter((name) => name.startsWith("bad-"))) {
        assert.ok(marked(page).length > 0, `${page} marks the lines that must fail`);
        assert.deepEqual(lines(page), marked(page), `${page}: errors on exactly the marked lines:\n${output}`);
    }
}

describe("tsc --strict", () => {
    test("over the runtime's declarations with the sample channels", () => {
        const sample = readFileSync(join(here, "sample-channels.d.ts"), "utf8");
        checkPages(workspace(`${readFileSync(runtimeDeclarations, "utf8")}\n${sample}`));
    });

    test("over the declarations switchboard-cli client generates", () => {
        const out = mkdtempSync(join(tmpdir(), "switchboard-client-"));
        directories.push(out);
        try {
            execFileSync(cliPath(), ["client", "--out", out], { encoding: "utf8", stdio: "pipe" });
        } catch (error) {
            assert.fail(`\`${cliPath()} client --out DIR\` failed (the CLI needs issue 27's generator): ${error.stderr || error.message}`);
        }
        const declarations = readFileSync(join(out, "switchboard.d.ts"), "utf8");
        assert.ok(declarations.startsWith(readFileSync(runtimeDeclarations, "utf8")), "the runtime's declarations come first, verbatim (a CLI built before the last change to switchboard-runtime.d.ts: run tools/embed-client-runtime.py, rebuild)");
        checkPages(workspace(declarations));
    });
});
