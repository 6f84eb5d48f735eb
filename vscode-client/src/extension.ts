/**
 * The VS Code side of evalyaml: finds the Python language server (a user's own, else the one
 * bundled in the extension under bundled/), starts it over stdio through vscode-languageclient
 * and forwards the `evalyaml.*` settings. All decisions live in the pure
 * modules `discovery.ts` and `settings.ts`; this file only wires them to the editor.
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DocumentFormattingRequest,
  DocumentOnTypeFormattingRequest,
  DocumentRangeFormattingRequest,
  LanguageClient,
  type LanguageClientOptions,
  ResponseError,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';

import { type DiscoveryInput, type DiscoveryResult, type ServerCommand, describeServer, discoverServer, failureMessage } from './discovery';
import { nodeProbe } from './probe';
import {
  type ServerSettings,
  SECTION,
  SERVER_SETTING_KEYS,
  answerConfiguration,
  buildDocumentSelector,
  needsRestart,
  toServerSettings,
} from './settings';

const CLIENT_ID = 'evalyaml';
const CLIENT_NAME = 'evalyaml';

let output: vscode.OutputChannel | undefined;
let client: LanguageClient | undefined;
let currentServer: ServerCommand | undefined;
/** Serialises start/stop so that rapid setting changes do not race. */
let queue: Promise<void> = Promise.resolve();
let pythonListener: vscode.Disposable | undefined;
/** bundled/tool/evalyaml_server.py inside the installed extension, when the build has it. */
let bundledLauncher: string | undefined;

function log(line: string): void {
  output?.appendLine(`[${new Date().toISOString()}] ${line}`);
}

function enqueue(task: () => Promise<void>): Promise<void> {
  queue = queue.then(task, task).catch((err: unknown) => {
    log(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  });
  return queue;
}

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('evalyaml');
  context.subscriptions.push(output);
  const launcher = context.asAbsolutePath('bundled/tool/evalyaml_server.py');
  bundledLauncher = existsSync(launcher) && existsSync(context.asAbsolutePath('bundled/libs/evalyaml')) ? launcher : undefined;

  context.subscriptions.push(
    vscode.commands.registerCommand('evalyaml.restartServer', () => enqueue(() => restart(true))),
    vscode.commands.registerCommand('evalyaml.showOutput', () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((s) => event.affectsConfiguration(s))) {
        log('evalyaml.server.path or evalyaml.files.include changed: restarting the server');
        void enqueue(() => restart(false));
      }
    }),
    {
      dispose: () => {
        pythonListener?.dispose();
      },
    },
  );

  return enqueue(() => start(false));
}

export function deactivate(): Promise<void> | undefined {
  return queue.then(stop);
}

async function restart(userAsked: boolean): Promise<void> {
  await stop();
  await start(userAsked);
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  currentServer = undefined;
  if (running === undefined) {
    return;
  }
  try {
    if (running.state !== State.Stopped) {
      await running.stop(5000);
    }
  } catch (err) {
    log(`stopping the server: ${String(err)}`);
  }
  try {
    await running.dispose();
  } catch {
    // already disposed
  }
}

// ---------------------------------------------------------------------------------------------
// Discovery

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string } | undefined;
  resolveEnvironment?(env: { id: string; path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
  onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
}

interface PythonExtensionApi {
  environments?: PythonEnvironmentsApi;
  settings?: { getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] } };
}

async function pythonInterpreter(resource: vscode.Uri | undefined): Promise<{ path?: string; reason?: string }> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi | undefined>('ms-python.python');
  if (ext === undefined) {
    return { reason: 'the Python extension (ms-python.python) is not installed' };
  }
  let api: PythonExtensionApi | undefined;
  try {
    api = ext.isActive ? ext.exports : await ext.activate();
  } catch (err) {
    return { reason: `the Python extension failed to activate (${String(err)})` };
  }
  const envs = api?.environments;
  if (envs !== undefined) {
    watchPythonEnvironment(envs);
    const active = envs.getActiveEnvironmentPath(resource);
    if (active !== undefined && active.path !== '') {
      // The path may name an environment folder (conda); resolve it to the executable.
      try {
        const resolved = await envs.resolveEnvironment?.(active);
        const exe = resolved?.executable?.uri?.fsPath;
        if (exe !== undefined && exe !== '') {
          return { path: exe };
        }
      } catch {
        // fall back to the raw path
      }
      return { path: active.path };
    }
  }
  const exec = api?.settings?.getExecutionDetails?.(resource).execCommand;
  if (exec !== undefined && exec.length > 0 && exec[0] !== undefined) {
    return { path: exec[0] };
  }
  return { reason: 'the Python extension has no interpreter selected' };
}

function watchPythonEnvironment(envs: PythonEnvironmentsApi): void {
  if (pythonListener !== undefined || envs.onDidChangeActiveEnvironmentPath === undefined) {
    return;
  }
  pythonListener = envs.onDidChangeActiveEnvironmentPath(() => {
    // Matters when the server came from the Python extension (or is bundled, and may be run by
    // its interpreter), or was not found at all.
    if (currentServer === undefined || currentServer.source === 'python' || currentServer.source === 'bundled') {
      log('the Python interpreter changed: restarting the server');
      void enqueue(() => restart(false));
    }
  });
}

async function discover(): Promise<DiscoveryResult> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const python = await pythonInterpreter(folder?.uri);
  const input: DiscoveryInput = {
    serverPath: config.get<string>('server.path', ''),
    pythonPath: python.path,
    pythonUnavailableReason: python.reason,
    homeDir: os.homedir(),
    workspaceFolder: folder?.uri.fsPath,
    platform: process.platform,
    bundledLauncher,
  };
  const result = await discoverServer(input, nodeProbe());
  for (const attempt of result.attempts) {
    log(`discovery: ${attempt.what}: ${attempt.problem ?? 'ok'}`);
  }
  return result;
}

let failureNotified = false;

function notifyNotFound(message: string, userAsked: boolean): void {
  // One notification per window, unless the user asks again through "Restart Server".
  if (failureNotified && !userAsked) {
    return;
  }
  failureNotified = true;
  const openSettings = 'Open Settings';
  void vscode.window.showErrorMessage(message, openSettings).then((choice) => {
    if (choice === openSettings) {
      void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The client

function serverSettingsFor(scopeUri: string | undefined): ServerSettings {
  const scope = scopeUri !== undefined ? vscode.Uri.parse(scopeUri) : vscode.workspace.workspaceFolders?.[0]?.uri;
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return toServerSettings((key) => config.inspect(key));
}

async function start(userAsked: boolean): Promise<void> {
  const found = await discover();
  if (!found.ok) {
    notifyNotFound(failureMessage(found.attempts), userAsked);
    return;
  }
  const server = found.server;
  log(describeServer(server));
  const channel = output ?? (output = vscode.window.createOutputChannel('evalyaml'));

  const folder = vscode.workspace.workspaceFolders?.[0];
  const serverOptions: ServerOptions = {
    command: server.command,
    args: [...server.args],
    transport: TransportKind.stdio,
    options: folder !== undefined ? { cwd: folder.uri.fsPath, env: { ...process.env } } : { env: { ...process.env } },
  };

  const extraGlobs = vscode.workspace.getConfiguration(SECTION).get<unknown>('files.include', []);
  const clientOptions: LanguageClientOptions = {
    documentSelector: buildDocumentSelector(extraGlobs),
    // Pushes workspace/didChangeConfiguration when an evalyaml.* setting changes; the payload
    // is replaced below by the same explicit-only object that workspace/configuration returns.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the server also pulls (workspace/configuration); this push tells it when to pull again
    synchronize: { configurationSection: SECTION },
    outputChannel: channel,
    traceOutputChannel: channel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    diagnosticCollectionName: CLIENT_ID,
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const defaults = await next(params, token);
          if (defaults instanceof ResponseError) {
            return defaults;
          }
          return answerConfiguration(params.items, defaults, serverSettingsFor);
        },
        didChangeConfiguration: async () => {
          const settings = { [SECTION]: serverSettingsFor(undefined) };
          await client?.sendNotification(DidChangeConfigurationNotification.type, { settings });
        },
      },
    },
  };

  const lc = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  neverFormat(lc);
  lc.onDidChangeState((e) => {
    log(`client state: ${State[e.oldState]} -> ${State[e.newState]}`);
  });
  client = lc;
  currentServer = server;
  try {
    await lc.start();
    log(`server started; settings sent to it: ${JSON.stringify(serverSettingsFor(undefined))} (keys: ${SERVER_SETTING_KEYS.join(', ')})`);
  } catch (err) {
    log(`the server did not start: ${String(err)}`);
    void vscode.window
      .showErrorMessage(`evalyaml: the language server (${server.command}) did not start. See the evalyaml output.`, 'Show Output')
      .then((choice) => {
        if (choice !== undefined) {
          output?.show(true);
        }
      });
  }
}

/**
 * evalyaml must never become a YAML formatter (Red Hat's YAML extension or the user's choice owns
 * that), even if a server build advertises formatting: drop those registrations.
 */
function neverFormat(lc: LanguageClient): void {
  const features = [
    lc.getFeature(DocumentFormattingRequest.method),
    lc.getFeature(DocumentRangeFormattingRequest.method),
    lc.getFeature(DocumentOnTypeFormattingRequest.method),
  ];
  for (const feature of features) {
    feature.register = () => {
      log('ignored a formatting capability of the server: evalyaml does not format YAML');
    };
  }
}
