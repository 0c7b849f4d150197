'use strict';
// bidi-lsp for VS Code: right-to-left and mixed-direction text support from
// the bidi-lsp daemon. Plain JavaScript, no dependencies: the LSP client is
// lib/client.js; this file holds the extension's state (the daemon, the
// documents it has open, the diagnostics) and wires it to the VS Code API;
// the language features are in lib/features.js, the commands in
// lib/commands.js, the conversions of LSP values in lib/convert.js.
//
// Positions: VS Code counts UTF-16 code units, so the daemon is asked for
// "utf-16" positions and every LSP Position maps to a vscode.Position as is.

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, ResponseError, ErrorCodes } = require('./lib/client');
const { severity, lspSeverity, toRange, fromRange, linesRange } = require('./lib/convert');
const { lspLanguageId } = require('./lib/languages');
const { features, VIEW_MARGIN } = require('./lib/features');
const { commands } = require('./lib/commands');

const SECTION = 'bidiLsp';

/** The daemon's settings from the configuration. */
function bidiSettings(config) {
  const settings = {
    strategy: config.get('strategy', 'firstStrong'),
    rtlThreshold: config.get('rtlThreshold', 0.4),
    fallback: config.get('fallback', 'previous'),
    paragraphs: config.get('paragraphs', 'line'),
    layoutDirection: config.get('layoutDirection', 'ltr'),
    sourceLocale: config.get('sourceLocale', 'en'),
  };
  const diagnostics = config.get('diagnostics', {});
  if (diagnostics && Object.keys(diagnostics).length > 0) settings.diagnostics = diagnostics;
  return settings;
}

/**
 * The daemon to start: `bidiLsp.path` when set to something else than
 * `bidi-lsp`, else the binary bundled in the extension's `bin/` (the .vsix
 * built by scripts/release.sh holds one, made executable here if unpacking
 * lost its mode), else `bidi-lsp` on the PATH.
 */
function daemonCommand(configured, extensionPath) {
  if (configured && configured !== 'bidi-lsp') return configured;
  if (extensionPath) {
    const bundled = path.join(extensionPath, 'bin', 'bidi-lsp');
    try {
      if (fs.statSync(bundled).isFile()) {
        try {
          fs.accessSync(bundled, fs.constants.X_OK);
        } catch (_) {
          fs.chmodSync(bundled, 0o755);
        }
        return bundled;
      }
    } catch (_) {
      // No bundled binary (or none that can be made executable).
    }
  }
  return 'bidi-lsp';
}

/** The extension's state while active. */
class BidiExtension {
  constructor(context) {
    this.context = context;
    this.output = vscode.window.createOutputChannel('bidi-lsp');
    this.diagnostics = vscode.languages.createDiagnosticCollection('bidi-lsp');
    this.client = null;
    this.starting = null;
    this.open = new Set(); // URIs the daemon has open
    this.forced = new Set(); // URIs opened by a command although not in bidiLsp.languages
    this.restartDelay = 250; // ms before restarting a daemon that died; doubled each time in a row
    this.restartAttempts = 5; // restarts in a row before giving up
    this.restarts = 0;
    this.restartTimer = null;
    this.startedAt = 0;
    this.visualTexts = new Map(); // visual-order documents, by URI path
    this.visualChanged = new vscode.EventEmitter();
    this.hintsChanged = new vscode.EventEmitter();
  }

  config() {
    return vscode.workspace.getConfiguration(SECTION);
  }

  log(text) {
    this.output.appendLine(text);
  }

  /** Whether a document is one the daemon should see. */
  wants(document) {
    if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled') return false;
    const languages = this.config().get('languages', []);
    return languages.includes('*') || languages.includes(document.languageId)
      || languages.includes(lspLanguageId(document));
  }

  // ---------------------------------------------------------------- daemon

  /** Starts the daemon if needed; resolves with the client. */
  start() {
    if (this.client && this.client.running) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.launch().finally(() => { this.starting = null; });
    }
    return this.starting;
  }

  async launch() {
    const config = this.config();
    const command = daemonCommand(config.get('path', 'bidi-lsp'), this.context.extensionPath);
    const trace = config.get('trace.server', 'off');
    const client = new LanguageClient(command, config.get('arguments', []), {
      trace: trace === 'off' ? null : (direction, message) => {
        const summary = message.method || `response ${message.id}`;
        this.log(trace === 'verbose' ? `[${direction}] ${JSON.stringify(message)}` : `[${direction}] ${summary}`);
      },
    });
    client.on('stderr', (text) => this.output.append(text));
    client.on('error', (error) => this.log(`[error] ${error.message}`));
    client.on('exit', (code, signal) => {
      this.log(`bidi-lsp exited (${signal || code})`);
      if (this.client !== client) return;
      this.client = null;
      this.open.clear();
      this.diagnostics.clear();
      if (!client.stopping) this.scheduleRestart();
    });
    client.onNotification('textDocument/publishDiagnostics', (params) => this.publishDiagnostics(params));
    client.onNotification('window/logMessage', (params) => this.log(params.message));
    client.onNotification('window/showMessage', (params) => vscode.window.showWarningMessage(`bidi-lsp: ${params.message}`));
    try {
      await client.start();
    } catch (error) {
      vscode.window.showErrorMessage(`bidi-lsp: cannot start ${command}: ${error.message} (set bidiLsp.path)`);
      throw error;
    }
    const result = await client.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'bidi-lsp-vscode', version: require('./package.json').version },
      rootUri: null,
      capabilities: { general: { positionEncodings: ['utf-16'] } },
      initializationOptions: { bidi: bidiSettings(config) },
    });
    const encoding = result.capabilities && result.capabilities.positionEncoding;
    if (encoding !== 'utf-16') {
      await client.stop();
      throw new Error(`the daemon chose ${encoding} positions; VS Code needs utf-16`);
    }
    client.notify('initialized', {});
    this.client = client;
    this.startedAt = Date.now();
    this.cancelRestart();
    for (const document of vscode.workspace.textDocuments) {
      if (this.forced.has(document.uri.toString())) this.openDocument(document);
      else this.didOpen(document);
    }
    this.hintsChanged.fire();
    return client;
  }

  async stop() {
    const client = this.client;
    this.client = null;
    this.cancelRestart();
    this.open.clear();
    this.diagnostics.clear();
    if (client) {
      client.stopping = true;
      await client.stop();
    }
  }

  /** Starts a daemon that died again, after a delay that doubles with each
   * death in a row (up to 30 s); gives up after {restartAttempts}. */
  scheduleRestart() {
    if (Date.now() - this.startedAt > 60000) this.restarts = 0;
    this.cancelRestart();
    if (this.restarts >= this.restartAttempts) {
      vscode.window.showErrorMessage(`bidi-lsp: the daemon died ${this.restarts} times in a row; run "Restart the bidi-lsp Daemon" to start it`);
      return;
    }
    const delay = Math.min(30000, this.restartDelay * 2 ** this.restarts);
    this.restarts += 1;
    this.log(`restarting bidi-lsp in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start().catch((error) => {
        this.log(`restart failed: ${error.message}`);
        this.scheduleRestart();
      });
    }, delay);
  }

  cancelRestart() {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  /** Sends a request for an open document; ensures it is open first. */
  async request(method, params, token) {
    const client = await this.start();
    return client.request(method, params, token);
  }

  // ------------------------------------------------------------- documents

  didOpen(document) {
    if (this.wants(document)) this.openDocument(document);
  }

  /** Sends didOpen for {document} unless the daemon has it. */
  openDocument(document) {
    const key = document.uri.toString();
    if (!this.client || this.open.has(key)) return;
    this.open.add(key);
    this.client.notify('textDocument/didOpen', {
      textDocument: { uri: key, languageId: lspLanguageId(document), version: document.version, text: document.getText() },
    });
  }

  didChange(event) {
    const key = event.document.uri.toString();
    if (!this.client || !this.open.has(key) || event.contentChanges.length === 0) return;
    this.client.notify('textDocument/didChange', {
      textDocument: { uri: key, version: event.document.version },
      contentChanges: event.contentChanges.map((change) => ({ range: fromRange(change.range), text: change.text })),
    });
    // No hint refresh here: VS Code asks again for the hints of the visible
    // lines itself once typing pauses.
  }

  didClose(document) {
    const key = document.uri.toString();
    this.forced.delete(key);
    if (!this.open.has(key)) return;
    this.open.delete(key);
    this.diagnostics.delete(document.uri);
    if (this.client) this.client.notify('textDocument/didClose', { textDocument: { uri: key } });
  }

  /** Makes sure the daemon has {document}; returns its LSP identifier. */
  async ensure(document) {
    await this.start();
    const key = document.uri.toString();
    // A command on a document of another language opens it anyway.
    if (!this.wants(document)) this.forced.add(key);
    this.openDocument(document);
    return { uri: key };
  }

  // ----------------------------------------------------------- diagnostics

  publishDiagnostics(params) {
    const uri = vscode.Uri.parse(params.uri);
    this.diagnostics.set(uri, params.diagnostics.map((lsp) => {
      const diagnostic = new vscode.Diagnostic(toRange(lsp.range), lsp.message, severity(lsp.severity));
      diagnostic.source = lsp.source || 'bidi-lsp';
      diagnostic.code = lsp.code;
      diagnostic.lsp = lsp; // the original, for codeAction requests
      return diagnostic;
    }));
  }

  toLspDiagnostic(diagnostic) {
    if (diagnostic.lsp) return diagnostic.lsp;
    return {
      range: fromRange(diagnostic.range), message: diagnostic.message,
      severity: lspSeverity(diagnostic.severity), code: diagnostic.code, source: diagnostic.source,
    };
  }

  async restart() {
    this.restarts = 0;
    await this.stop();
    await this.start();
  }

  didChangeConfiguration(event) {
    if (!event.affectsConfiguration(SECTION) || !this.client) return;
    if (event.affectsConfiguration(`${SECTION}.path`) || event.affectsConfiguration(`${SECTION}.arguments`)
      || event.affectsConfiguration(`${SECTION}.trace.server`)) {
      this.restart().catch((error) => this.log(`restart failed: ${error.message}`));
      return;
    }
    this.client.notify('workspace/didChangeConfiguration', { settings: { bidi: bidiSettings(this.config()) } });
    this.hintsChanged.fire();
  }
}
// The language features and the commands are methods of the state too.
Object.assign(BidiExtension.prototype, features, commands);

/** Wraps a command so that its errors are shown, not thrown at VS Code. */
function command(ext, run) {
  return async (...args) => {
    try {
      return await run(...args);
    } catch (error) {
      if (error instanceof ResponseError && error.code === ErrorCodes.RequestCancelled) return undefined;
      vscode.window.showErrorMessage(`bidi-lsp: ${error.message}`);
      ext.log(`[error] ${error.stack || error.message}`);
      return undefined;
    }
  };
}

/** Quiet provider calls: a cancelled or failed request gives nothing. */
function quiet(ext, run) {
  return async (...args) => {
    try {
      return await run(...args);
    } catch (error) {
      if (!(error instanceof ResponseError && error.code === ErrorCodes.RequestCancelled)) {
        ext.log(`[error] ${error.message}`);
      }
      return undefined;
    }
  };
}

let current = null;

/** Called by VS Code when the extension activates. Returns the extension's
 * state, for tests and other extensions. */
async function activate(context) {
  const ext = new BidiExtension(context);
  current = ext;
  const selector = [{ scheme: 'file' }, { scheme: 'untitled' }];
  const subscriptions = context.subscriptions;
  subscriptions.push(
    ext.output, ext.diagnostics, ext.visualChanged, ext.hintsChanged,
    vscode.workspace.onDidOpenTextDocument((document) => ext.didOpen(document)),
    vscode.workspace.onDidChangeTextDocument((event) => ext.didChange(event)),
    vscode.workspace.onDidCloseTextDocument((document) => ext.didClose(document)),
    vscode.workspace.onDidChangeConfiguration((event) => ext.didChangeConfiguration(event)),
    vscode.workspace.registerTextDocumentContentProvider('bidi-lsp-visual', {
      onDidChange: ext.visualChanged.event,
      provideTextDocumentContent: (uri) => ext.provideTextDocumentContent(uri),
    }),
    vscode.languages.registerCodeActionsProvider(selector, {
      provideCodeActions: quiet(ext, (d, r, c, t) => (ext.wants(d) ? ext.provideCodeActions(d, r, c, t) : [])),
    }, {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.RefactorRewrite,
        vscode.CodeActionKind.SourceFixAll],
    }),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: quiet(ext, (d, p, t) => (ext.wants(d) ? ext.provideHover(d, p, t) : null)),
    }),
    vscode.languages.registerInlayHintsProvider(selector, {
      onDidChangeInlayHints: ext.hintsChanged.event,
      provideInlayHints: quiet(ext, (d, r, t) => (ext.wants(d) ? ext.provideInlayHints(d, r, t) : [])),
    }),
    vscode.commands.registerCommand('bidiLsp.showDirection', command(ext, () => ext.showDirection())),
    vscode.commands.registerCommand('bidiLsp.showVisualOrder', command(ext, () => ext.showVisualOrder())),
    vscode.commands.registerCommand('bidiLsp.insertMarks', command(ext, () => ext.chooseMarks())),
    vscode.commands.registerCommand('bidiLsp.makeRtl', command(ext, () => ext.insertMarks('direction', { direction: 'rtl' }))),
    vscode.commands.registerCommand('bidiLsp.makeLtr', command(ext, () => ext.insertMarks('direction', { direction: 'ltr' }))),
    vscode.commands.registerCommand('bidiLsp.isolateSelection', command(ext, () => ext.insertMarks('isolate', { isolate: 'auto' }, true))),
    vscode.commands.registerCommand('bidiLsp.isolatePlaceholders', command(ext, () => ext.insertMarks('placeholders', { style: 'isolate' }))),
    vscode.commands.registerCommand('bidiLsp.markPlaceholders', command(ext, () => ext.insertMarks('placeholders', { style: 'marks' }))),
    vscode.commands.registerCommand('bidiLsp.isolateRuns', command(ext, () => ext.insertMarks('runs'))),
    vscode.commands.registerCommand('bidiLsp.stripUnpaired', command(ext, () => ext.insertMarks('strip', { only: 'unpaired' }))),
    vscode.commands.registerCommand('bidiLsp.stripAll', command(ext, () => ext.insertMarks('strip', { only: 'all' }))),
    vscode.commands.registerCommand('bidiLsp.fix', command(ext, () => ext.fix(false))),
    vscode.commands.registerCommand('bidiLsp.fixAll', command(ext, () => ext.fix(true))),
    vscode.commands.registerCommand('bidiLsp.restart', command(ext, () => ext.restart())),
    vscode.commands.registerCommand('bidiLsp.showOutput', () => ext.output.show(true)),
  );
  try {
    await ext.start();
  } catch (error) {
    ext.log(`[error] ${error.message}`);
  }
  return ext;
}

/** Called by VS Code when the extension deactivates: stops the daemon. */
function deactivate() {
  const ext = current;
  current = null;
  return ext ? ext.stop() : undefined;
}

module.exports = { activate, deactivate, linesRange, bidiSettings, lspLanguageId, daemonCommand, VIEW_MARGIN };
