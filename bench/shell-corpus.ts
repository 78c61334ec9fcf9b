import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { root } from './vigil-process';

/** Commands coding agents run, as they write them (the bench's "realistic" half of the corpus). */
const agentCommands = [
  'npm test -- --run src/utils.test.ts 2>&1 | tail -40',
  'git status --porcelain && git diff --stat',
  'git add -A && git commit -m "Fix the parser: handle empty input" && git log --oneline -3',
  'cd packages/web && npx tsc --noEmit -p tsconfig.json 2>&1 | head -50',
  'rg -n "TODO|FIXME" --type ts src/ | wc -l',
  'find . -name "*.pyc" -not -path "./.venv/*" -delete',
  'python -m pytest tests/ -x -q --tb=short 2>&1 | tail -20',
  'for f in src/*.ts; do echo "$f: $(wc -l < "$f")"; done',
  'if [ -f package-lock.json ]; then npm ci; else npm install; fi',
  'mkdir -p build/out && cp -r assets/* build/out/ && ls -la build/out',
  'curl -s http://localhost:3000/api/health | jq .status',
  'sed -i "s/oldName/newName/g" $(grep -rl oldName src/)',
  'docker compose up -d db && sleep 2 && docker compose ps',
  'export NODE_ENV=test; DEBUG=app:* node scripts/seed.js --count 100 > seed.log 2>&1 &',
  "grep -rn \"import .* from 'react'\" src | awk -F: '{print $1}' | sort -u",
  'cat package.json | python3 -c "import json,sys; print(json.load(sys.stdin)[\'version\'])"',
  'ls -la ~/.config && rm -rf ./tmp/cache/* || true',
  'while read -r line; do echo "${line%%=*}"; done < .env.example',
  'case "$(uname -s)" in Linux) echo linux;; Darwin) echo mac;; *) echo other;; esac',
  '( cd frontend && npm run build ) && tar czf dist.tgz -C frontend/dist .',
  'git stash && git pull --rebase origin main && git stash pop',
  'diff <(sort a.txt) <(sort b.txt) > changes.diff; echo "exit $?"',
  'test -d node_modules || { echo "run npm install first" >&2; exit 1; }',
  'make -j4 all 2>&1 | tee build.log | grep -E "error|warning" || echo clean',
  'bash -c \'for i in 1 2 3; do echo "$i"; done\'',
  'xargs -0 rm -f < <(find . -name "*.tmp" -print0)',
  "cat > src/config.ts <<'EOF'\nexport const config = {\n  port: Number(process.env.PORT ?? 3000),\n  debug: false,\n};\nEOF",
  'cat <<EOF > notes.md\n# Notes for $(date +%F)\nBranch: $(git rev-parse --abbrev-ref HEAD)\nEOF',
  "python3 - <<'PY'\nimport pathlib\nfor p in pathlib.Path('src').rglob('*.py'):\n    print(p, len(p.read_text().splitlines()))\nPY",
  'echo "deb [arch=$(dpkg --print-architecture)] https://example.test stable main" | sudo tee /etc/apt/sources.list.d/x.list',
];

/** A file written by heredoc, as an agent writes a generated source file (issue #30 H2: ~70 KB), then one more command. */
export function longHeredoc(kib: number): string {
  const line = '  { id: 1, name: "item", tags: ["a", "b"], price: 12.5, note: "$HOME and `x` stay text" },\n';
  const body = line.repeat(Math.ceil((kib * 1024) / line.length));
  return `cat > src/generated/data.ts <<'EOF'\nexport const data = [\n${body}];\nEOF\nnpx prettier --write src/generated/data.ts`;
}

/** A single-quoted TypeScript string literal's value (the escapes the policy tests use). */
function unquote(literal: string): string {
  return literal.replace(/\\(.)/g, (_match, char: string) => (char === 'n' ? '\n' : char === 't' ? '\t' : char));
}

/** The command lines the policy's tests feed the analyser: each quoted string alone on its line of a list. */
async function policyTestCommands(): Promise<string[]> {
  const files = ['analyze-command.test.ts', 'policy-gaps.test.ts', 'command-flow.test.ts', 'workspace-code.test.ts'];
  const commands = new Set<string>();
  for (const file of files) {
    const source = await readFile(path.join(root, 'electron/policy', file), 'utf8');
    for (const match of source.matchAll(/^\s+'((?:[^'\\]|\\.)+)',?$/gm)) commands.add(unquote(match[1] ?? ''));
  }
  return [...commands];
}

/** The corpus: the agents' commands and the policy tests' commands. */
export async function shellCorpus(): Promise<{
  readonly agent: readonly string[];
  readonly policy: readonly string[];
}> {
  return { agent: agentCommands, policy: await policyTestCommands() };
}
