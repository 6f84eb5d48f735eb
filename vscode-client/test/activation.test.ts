/**
 * The extension's activation events (package.json) against real workspaces: each example
 * workspace of each format starts the extension without a file being opened (so its findings
 * reach the Problems panel), and an ordinary project with JSON and Markdown in it does not.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

import { globToRegExp } from './glob';

const CLIENT = resolve(__dirname, '..', '..');
const EXAMPLES = resolve(CLIENT, '..', 'examples');
const events = (JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { activationEvents: string[] }).activationEvents;
const patterns = events.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));

function files(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        visit(full);
      } else {
        out.push(relative(root, full).split(sep).join('/'));
      }
    }
  };
  visit(root);
  return out;
}

/** The workspaceContains patterns some file of the workspace matches. */
function activating(paths: string[]): string[] {
  return patterns.filter((p) => paths.some((f) => globToRegExp(p).test(f)));
}

describe('activation events', () => {
  it('start the extension for YAML and JSON Lines files, not for every JSON or Markdown file', () => {
    assert.ok(events.includes('onLanguage:yaml'));
    assert.ok(events.includes('onLanguage:jsonl'));
    assert.ok(!events.some((e) => /^onLanguage:(json|jsonc|markdown)$/.test(e)), events.join(', '));
    assert.ok(!events.includes('*') && !events.includes('onStartupFinished'));
  });

  for (const folder of ['.', 'padosoft', 'agentv', 'eee', 'apastra', 'promptfoo', 'lm-eval']) {
    it(`start it in examples/${folder} (no mistakes folders, no file opened)`, () => {
      const root = join(EXAMPLES, folder);
      const paths = files(root).filter((f) => !/(^|\/)mistakes\//.test(f) && f !== 'evalyaml.toml');
      const hits = activating(paths);
      assert.ok(hits.length > 0, `nothing in ${root} matches ${patterns.join(', ')}`);
    });
  }

  it('start it for a promptfoo config, and not for a promptfoo-like name', () => {
    assert.deepEqual(activating(['evals/promptfooconfig.yaml']), ['**/promptfooconfig.yaml']);
    assert.deepEqual(activating(['promptfooconfig.json']), ['**/promptfooconfig.json']);
    assert.deepEqual(activating(['promptfoo-notes.yaml']), []);
  });

  it('start it for an lm-evaluation-harness task tree or include template', () => {
    assert.deepEqual(activating(['lm_eval/tasks/arc/arc_easy.yaml']), ['**/lm_eval/tasks/**']);
    assert.deepEqual(activating(['my_tasks/tasks/mmlu/_default_template_yaml']), [
      '**/tasks/**/_default_template_yaml',
    ]);
  });

  it('start it for the datastore of Every Eval Ever, from a samples file or an aggregate alone', () => {
    const aggregate = 'data/mmlu/openai/gpt-4o/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d.json';
    assert.deepEqual(activating([aggregate]), ['**/data/*/*/*/*-*-*-*-*.json']);
    assert.deepEqual(activating(['repo/data/mmlu/openai/gpt-4o/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d_samples.jsonl']), [
      '**/data/*/*/*/*_samples.jsonl',
    ]);
  });

  it('leave an ordinary project alone', () => {
    const project = [
      'package.json',
      'tsconfig.json',
      '.vscode/settings.json',
      'README.md',
      'docs/guide.md',
      'data/train.json',
      'data/users/2024/records.json',
      'src/data/fixtures/en/strings.json',
      'test/fixtures/dataset.jsonl',
      '.github/workflows/ci.yml',
      'docker-compose.yaml',
    ];
    assert.deepEqual(activating(project), []);
  });
});
