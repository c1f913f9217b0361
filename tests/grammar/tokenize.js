// Tokenizes files with the policy grammar as VS Code does (vscode-textmate
// over the Oniguruma regex engine) and prints, for each file, each line's
// tokens and their scopes as JSON.
//
//   node tokenize.js GRAMMAR FILE...
const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  const grammar = await registry.loadGrammar("source.ctxguard-policy");
  const out = {};
  for (const file of files) {
    let stack = textmate.INITIAL;
    out[file] = fs.readFileSync(file, "utf8").split("\n").map((line) => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      return result.tokens.map((t) => ({ text: line.substring(t.startIndex, t.endIndex), scopes: t.scopes.slice(1) }));
    });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
