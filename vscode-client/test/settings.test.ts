import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type DocumentFilter,
  type Inspected,
  type ServerSettingKey,
  affectsServerSettings,
  answerConfiguration,
  buildDocumentSelector,
  explicitValue,
  needsRestart,
  toServerSettings,
} from '../src/settings';
import { globToRegExp } from './glob';

function inspector(values: Partial<Record<ServerSettingKey, Inspected>>) {
  return (key: ServerSettingKey): Inspected | undefined => values[key];
}

describe('explicitValue', () => {
  it('prefers folder over workspace over user settings and ignores defaults', () => {
    assert.equal(explicitValue({ defaultValue: 90 }), undefined);
    assert.equal(explicitValue({ defaultValue: 90, globalValue: 30 }), 30);
    assert.equal(explicitValue({ defaultValue: 90, globalValue: 30, workspaceValue: 20 }), 20);
    assert.equal(explicitValue({ globalValue: 30, workspaceValue: 20, workspaceFolderValue: 10 }), 10);
    assert.equal(explicitValue({ globalValue: true, workspaceValue: false }), false);
    assert.equal(explicitValue(undefined), undefined);
  });
});

describe('toServerSettings', () => {
  it('sends nothing when the user set nothing, so evalyaml.toml decides', () => {
    const s = toServerSettings(
      inspector({
        strict: { defaultValue: false },
        freshnessDays: { defaultValue: 90 },
        include: { defaultValue: [] },
        exclude: { defaultValue: [] },
      }),
    );
    assert.deepEqual(s, {});
  });

  it('forwards the rule keys the user set, dropping entries of the wrong type', () => {
    const s = toServerSettings(
      inspector({
        ignore: { workspaceValue: ['EY205', 7] },
        extendSelect: { globalValue: ['EY2'] },
        perFileIgnores: { workspaceValue: { 'mistakes/**': ['EY2', null], 'x/*': 'EY1' } },
        severity: { workspaceValue: { EY205: 'hint', EY301: 3 } },
        select: { defaultValue: [] },
      }),
    );
    assert.deepEqual(s, {
      ignore: ['EY205'],
      extendSelect: ['EY2'],
      perFileIgnores: { 'mistakes/**': ['EY2'] },
      severity: { EY205: 'hint' },
    });
  });

  it('maps every key the user set', () => {
    const s = toServerSettings(
      inspector({
        strict: { defaultValue: false, workspaceValue: true },
        freshnessDays: { defaultValue: 90, globalValue: 30 },
        include: { defaultValue: [], workspaceFolderValue: ['evals/**/*.yaml'] },
        exclude: { defaultValue: [], globalValue: ['**/node_modules/**', '', 3] },
      }),
    );
    assert.deepEqual(s, {
      strict: true,
      freshnessDays: 30,
      include: ['evals/**/*.yaml'],
      exclude: ['**/node_modules/**'],
    });
  });

  it('keeps an explicit strict=false (it overrides strict=true in evalyaml.toml)', () => {
    assert.deepEqual(toServerSettings(inspector({ strict: { defaultValue: false, globalValue: false } })), { strict: false });
  });

  it('drops values of the wrong type', () => {
    const s = toServerSettings(
      inspector({
        strict: { globalValue: 'yes' },
        freshnessDays: { globalValue: -1 },
        include: { globalValue: 'rubrics/*.yaml' },
        exclude: { globalValue: Number.NaN },
      }),
    );
    assert.deepEqual(s, {});
    assert.deepEqual(toServerSettings(inspector({ freshnessDays: { globalValue: Number.POSITIVE_INFINITY } })), {});
    assert.deepEqual(toServerSettings(inspector({ freshnessDays: { globalValue: 0 } })), { freshnessDays: 0 });
  });
});

describe('answerConfiguration', () => {
  const settings = (scope: string | undefined) => (scope === 'file:///b' ? { strict: true } : { freshnessDays: 7 });

  it('answers the evalyaml section per scope and leaves other sections alone', () => {
    const items = [
      { section: 'evalyaml', scopeUri: 'file:///a' },
      { section: 'evalyaml', scopeUri: 'file:///b' },
      { section: 'yaml' },
      { section: 'evalyaml.freshnessDays' },
      { section: 'evalyaml.strict' },
      { section: 'evalyaml.server.path' },
      {},
    ];
    const defaults = [{ full: 1 }, { full: 2 }, { yaml: true }, 90, false, '/x', { all: true }];
    assert.deepEqual(answerConfiguration(items, defaults, settings), [
      { freshnessDays: 7 },
      { strict: true },
      { yaml: true },
      7,
      null,
      '/x',
      { all: true },
    ]);
  });

  it('answers null when VS Code gave fewer results than items', () => {
    assert.deepEqual(answerConfiguration([{ section: 'other' }], [], settings), [null]);
  });
});

/**
 * VS Code's document filter matching, for the two shapes used (scheme + language, scheme +
 * pattern). A document goes to the server when any filter matches.
 */
function sends(selector: DocumentFilter[], language: string, path: string, scheme = 'file'): boolean {
  return selector.some((f) =>
    f.scheme === scheme && ('language' in f ? f.language === language : globToRegExp(f.pattern).test(path)),
  );
}

describe('buildDocumentSelector', () => {
  const selector = buildDocumentSelector(undefined);

  it('sends every YAML, JSON, JSON Lines and Markdown file on disk', () => {
    assert.deepEqual(buildDocumentSelector([]), selector);
    const files: [string, string][] = [
      ['yaml', '/w/rubrics/helpfulness.yaml'],
      ['yaml', '/w/agentv/evals/support.eval.yaml'],
      ['json', '/w/eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d.json'],
      ['json', '/w/padosoft/eval/sets/nightly.json'],
      // JSON Lines: VS Code's own `jsonl` language where it has one, plain text where not.
      ['jsonl', '/w/eee/data/arith-demo/acme/tiny-model/3b1f6c2e_samples.jsonl'],
      ['plaintext', '/w/apastra/promptops/datasets/support-faq/dataset.jsonl'],
      ['json', '/w/cases.jsonl'],
      ['markdown', '/w/agentv/evals/prompts/support-grader.md'],
      // A `.json` file the user associated with `jsonc` (comments allowed).
      ['jsonc', '/w/apastra/derived-index/baselines/support-baseline.json'],
    ];
    for (const [language, path] of files) {
      assert.ok(sends(selector, language, path), `${language} ${path} is not sent`);
    }
  });

  it('leaves alone what can never be an eval file, and documents not on disk', () => {
    const files: [string, string][] = [
      ['jsonc', '/w/.vscode/extensions.jsonc'],
      ['typescript', '/w/.agentv/assertions/contains-all.ts'],
      ['plaintext', '/w/notes.txt'],
      ['python', '/w/pyproject.py'],
    ];
    for (const [language, path] of files) {
      assert.ok(!sends(selector, language, path), `${language} ${path} is sent`);
    }
    for (const scheme of ['untitled', 'git', 'vscode-notebook-cell']) {
      assert.ok(!sends(selector, 'yaml', '/w/rubrics/a.yaml', scheme), `${scheme}: is sent`);
      assert.ok(!sends(selector, 'markdown', '/w/prompts/a.md', scheme), `${scheme}: is sent`);
    }
  });

  it('adds evalyaml.files.include globs regardless of language', () => {
    const withExtra = buildDocumentSelector(['**/prompts/*.txt', ' ', 7, ' evals/**/*.eval ']);
    assert.deepEqual(withExtra.slice(selector.length), [
      { scheme: 'file', pattern: '**/prompts/*.txt' },
      { scheme: 'file', pattern: 'evals/**/*.eval' },
    ]);
    assert.ok(sends(withExtra, 'plaintext', '/w/agentv/prompts/grader.txt'));
    assert.ok(!sends(selector, 'plaintext', '/w/agentv/prompts/grader.txt'));
  });
});

describe('restart and sync decisions', () => {
  const affects = (changed: string[]) => (section: string) => changed.some((c) => c === section || c.startsWith(`${section}.`));
  it('restarts only for the server path and the document selector', () => {
    assert.equal(needsRestart(affects(['evalyaml.server.path'])), true);
    assert.equal(needsRestart(affects(['evalyaml.files.include'])), true);
    assert.equal(needsRestart(affects(['evalyaml.strict'])), false);
    assert.equal(needsRestart(affects(['yaml.schemas'])), false);
  });
  it('knows which settings reach the server', () => {
    assert.equal(affectsServerSettings(affects(['evalyaml.freshnessDays'])), true);
    assert.equal(affectsServerSettings(affects(['evalyaml.trace.server'])), false);
  });
});
