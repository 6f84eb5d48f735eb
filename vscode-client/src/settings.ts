/**
 * Mapping VS Code settings to what the evalyaml server reads. Pure logic: no `vscode` import.
 *
 * The server asks for its settings with `workspace/configuration`, section `evalyaml`, and gets
 * an object with the keys `strict`, `freshnessDays`, `include`, `exclude` and the rules (`select`,
 * `ignore`, `extendSelect`, `extendIgnore`, `perFileIgnores`, `severity`). Only the keys the
 * user actually set (user, workspace or folder settings) are sent: an absent key means "not set
 * in the editor", so `evalyaml.toml` / `[tool.evalyaml]` in `pyproject.toml` and then the
 * server's own defaults apply. Sending VS Code's contributed defaults would silently override
 * the project's file (for example `strict = true` in `evalyaml.toml`).
 */

export const SECTION = 'evalyaml';

/** Settings the server reads, in the order documented in docs/editors.md. */
export const SERVER_SETTING_KEYS = [
  'strict', 'freshnessDays', 'include', 'exclude',
  'select', 'ignore', 'extendSelect', 'extendIgnore', 'perFileIgnores', 'severity',
] as const;
export type ServerSettingKey = (typeof SERVER_SETTING_KEYS)[number];

export interface ServerSettings {
  strict?: boolean;
  freshnessDays?: number;
  include?: string[];
  exclude?: string[];
  select?: string[];
  ignore?: string[];
  extendSelect?: string[];
  extendIgnore?: string[];
  perFileIgnores?: Record<string, string[]>;
  severity?: Record<string, string>;
}

/** The rule keys that are lists of codes or code prefixes. */
const CODE_LISTS = ['select', 'ignore', 'extendSelect', 'extendIgnore'] as const;

function stringTable(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>) : undefined;
}

/** The shape of `WorkspaceConfiguration.inspect()` that matters here. */
export interface Inspected {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** The value the user set, most specific scope first; undefined when only the default applies. */
export function explicitValue(inspected: Inspected | undefined): unknown {
  if (inspected === undefined) {
    return undefined;
  }
  if (inspected.workspaceFolderValue !== undefined) {
    return inspected.workspaceFolderValue;
  }
  if (inspected.workspaceValue !== undefined) {
    return inspected.workspaceValue;
  }
  return inspected.globalValue;
}

function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/**
 * Builds the object answered for section `evalyaml`. Values of the wrong type (hand-edited
 * settings.json) are dropped rather than forwarded.
 */
export function toServerSettings(inspect: (key: ServerSettingKey) => Inspected | undefined): ServerSettings {
  const out: ServerSettings = {};
  const strict = explicitValue(inspect('strict'));
  if (typeof strict === 'boolean') {
    out.strict = strict;
  }
  const days = explicitValue(inspect('freshnessDays'));
  if (typeof days === 'number' && Number.isFinite(days) && days >= 0) {
    out.freshnessDays = days;
  }
  const include = stringArray(explicitValue(inspect('include')));
  if (include !== undefined) {
    out.include = include;
  }
  const exclude = stringArray(explicitValue(inspect('exclude')));
  if (exclude !== undefined) {
    out.exclude = exclude;
  }
  for (const key of CODE_LISTS) {
    const codes = stringArray(explicitValue(inspect(key)));
    if (codes !== undefined) {
      out[key] = codes;
    }
  }
  const perFile = stringTable(explicitValue(inspect('perFileIgnores')));
  if (perFile !== undefined) {
    const table: Record<string, string[]> = {};
    for (const [glob, codes] of Object.entries(perFile)) {
      const list = stringArray(codes);
      if (list !== undefined) {
        table[glob] = list;
      }
    }
    out.perFileIgnores = table;
  }
  const severity = stringTable(explicitValue(inspect('severity')));
  if (severity !== undefined) {
    const table: Record<string, string> = {};
    for (const [code, level] of Object.entries(severity)) {
      if (typeof level === 'string') {
        table[code] = level;
      }
    }
    out.severity = table;
  }
  return out;
}

export interface ConfigurationItem {
  readonly section?: string | undefined;
  readonly scopeUri?: string | undefined;
}

/**
 * Answers a `workspace/configuration` request. Items for `evalyaml` get `settingsFor(scopeUri)`;
 * items for `evalyaml.<key>` get that key's explicit value or null; any other item keeps the
 * answer VS Code's default handling gave (`defaults[i]`).
 */
export function answerConfiguration(
  items: readonly ConfigurationItem[],
  defaults: readonly unknown[],
  settingsFor: (scopeUri: string | undefined) => ServerSettings,
): unknown[] {
  return items.map((item, i) => {
    const section = item.section;
    if (section === SECTION) {
      return settingsFor(item.scopeUri);
    }
    if (section?.startsWith(`${SECTION}.`) === true) {
      const key = section.slice(SECTION.length + 1);
      if ((SERVER_SETTING_KEYS as readonly string[]).includes(key)) {
        const value = settingsFor(item.scopeUri)[key as ServerSettingKey];
        return value ?? null;
      }
    }
    return defaults[i] ?? null;
  });
}

/** A document filter as in the LSP / VS Code API (the two shapes used here). */
export type DocumentFilter =
  | { readonly scheme: string; readonly language: string }
  | { readonly scheme: string; readonly pattern: string };

/**
 * What the editor sends to the server: every file it may check, and the server decides the kind
 * of a file by its path and content (modeline, `$schema`, folder, shape), answering nothing for
 * the rest. So that is every YAML, JSON, JSON Lines and Markdown file on disk:
 *
 * - YAML by language (`yaml`): datasets, rubrics, judges, Padosoft, AgentV suites, Apastra files.
 * - JSON by language (`json`) and by pattern (files ending in `.json`): Every Eval Ever aggregates,
 *   Padosoft eval sets, Apastra baselines. The pattern also catches a `.json` file the user
 *   associated with `jsonc` (`files.associations`, to allow comments); `.jsonc` files are
 *   never eval files, so the `jsonc` language is not sent as such.
 * - JSON Lines by pattern (files ending in `.jsonl`: older VS Code has no `jsonl` language and shows
 *   them as plain text) and by language (`jsonl`, where VS Code has it): Every Eval Ever
 *   samples, Apastra datasets, AgentV cases files.
 * - Markdown by language (`markdown`): an AgentV grader prompt (`prompt: file://x.md`) is
 *   Markdown, and only the server knows which `.md` a suite names; it answers nothing (no
 *   diagnostics, no completion, no hover) for a `.md` nothing adopts.
 *
 * `evalyaml.files.include` adds globs for files in any other language mode (a `.txt` prompt).
 */
export const DEFAULT_SELECTOR: readonly DocumentFilter[] = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'file', language: 'json' },
  { scheme: 'file', pattern: '**/*.json' },
  { scheme: 'file', language: 'jsonl' },
  { scheme: 'file', pattern: '**/*.jsonl' },
  { scheme: 'file', language: 'markdown' },
  // promptfoo's CSV test tables and lm-evaluation-harness's extension-less include templates
  // (`_default_template_yaml`): no language of VS Code's own claims them.
  { scheme: 'file', pattern: '**/*.csv' },
  { scheme: 'file', pattern: '**/*_yaml' },
];

export function buildDocumentSelector(extraGlobs: unknown): DocumentFilter[] {
  const selector: DocumentFilter[] = [...DEFAULT_SELECTOR];
  for (const glob of stringArray(extraGlobs) ?? []) {
    selector.push({ scheme: 'file', pattern: glob.trim() });
  }
  return selector;
}

/** Settings whose change needs a new server process (the rest reach the running server). */
export const RESTART_SETTINGS = [`${SECTION}.server.path`, `${SECTION}.files.include`] as const;

export function needsRestart(affectsConfiguration: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((s) => affectsConfiguration(s));
}

/** Settings that reach the running server through workspace/didChangeConfiguration. */
export function affectsServerSettings(affectsConfiguration: (section: string) => boolean): boolean {
  return SERVER_SETTING_KEYS.some((k) => affectsConfiguration(`${SECTION}.${k}`));
}
