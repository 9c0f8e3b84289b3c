// Draw Yosys JSON modules with netlistsvg (its default digital skin), for diagbench's
// Verilog engine. One request a line on stdin: {"modules": [[name, module], ...]}; one
// answer a line on stdout: {"svgs": [svg, ...]} (one per module, in order), or
// {"error": message}. argv[2] is the folder of the installed netlistsvg package.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const folder = process.argv[2];
const require = createRequire(folder + "/package.json");
const netlistsvg = require(folder);
const skin = readFileSync(folder + "/lib/default.svg", "utf8");

async function draw(request) {
  const svgs = [];
  for (const [name, module] of request.modules) {
    svgs.push(await netlistsvg.render(skin, { modules: { [name]: module } }));
  }
  return { svgs };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let answer;
  try {
    answer = await draw(JSON.parse(line));
  } catch (error) {
    answer = { error: String(error && error.message ? error.message : error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
