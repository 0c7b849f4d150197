'use strict';
// bidi-lsp for VS Code: right-to-left and mixed-direction text support from
// the bidi-lsp daemon. Plain JavaScript, no dependencies: the LSP client is
// lib/client.js and the editor features are wired to the VS Code API here.
//
// Positions: VS Code counts UTF-16 code units, so the daemon is asked for
// "utf-16" positions and every LSP Position maps to a vscode.Position as is.

const vscode = require('vscode');
const { LanguageClient, ResponseError, ErrorCodes } = require('./lib/client');

const SECTION = 'bidiLsp';

/** LSP DiagnosticSeverity → vscode.DiagnosticSeverity. */
function severity(value) {
  switch (value) {
    case 2: return vscode.DiagnosticSeverity.Warning;
    case 3: return vscode.DiagnosticSeverity.Information;
    case 4: return vscode.DiagnosticSeverity.Hint;
    default: return vscode.DiagnosticSeverity.Error;
  }
}

/** vscode.DiagnosticSeverity → LSP DiagnosticSeverity. */
function lspSeverity(value) {
  switch (value) {
    case vscode.DiagnosticSeverity.Warning: return 2;
    case vscode.DiagnosticSeverity.Information: return 3;
    case vscode.DiagnosticSeverity.Hint: return 4;
    default: return 1;
  }
}

const toPosition = (p) => new vscode.Position(p.line, p.character);
const toRange = (r) => new vscode.Range(toPosition(r.start), toPosition(r.end));
const fromPosition = (p) => ({ line: p.line, character: p.character });
const fromRange = (r) => ({ start: fromPosition(r.start), end: fromPosition(r.end) });

/** The LSP Range of the whole lines a selection covers in {document}: up
 * to character 0 of the next line (which the daemon does not include), or
 * to the end of the last line. A selection of whole lines ends at character
 * 0 of the line after them, which is not part of it. */
function linesRange(document, selection) {
  let last = selection.end.line;
  if (selection.end.character === 0 && last > selection.start.line) last -= 1;
  const end = last + 1 < document.lineCount
    ? { line: last + 1, character: 0 }
    : { line: last, character: document.lineAt(last).text.length };
  return { start: { line: selection.start.line, character: 0 }, end };
}

/** The daemon's settings from the configuration. */
function bidiSettings(config) {
  const settings = {
    strategy: config.get('strategy', 'firstStrong'),
    rtlThreshold: config.get('rtlThreshold', 0.4),
    fallback: config.get('fallback', 'previous'),
    paragraphs: config.get('paragraphs', 'line'),
    layoutDirection: config.get('layoutDirection', 'ltr'),
  };
  const diagnostics = config.get('diagnostics', {});
  if (diagnostics && Object.keys(diagnostics).length > 0) settings.diagnostics = diagnostics;
  return settings;
}

/** The insertMarks modes offered by the "Insert bidi marks…" command. */
const MARK_CHOICES = [
  { label: 'Right-to-left paragraphs (RLM)', mode: 'direction', options: { direction: 'rtl' } },
  { label: 'Left-to-right paragraphs (LRM)', mode: 'direction', options: { direction: 'ltr' } },
  { label: 'Isolate the selection (FSI…PDI)', mode: 'isolate', options: { isolate: 'auto' }, exact: true },
  { label: 'Isolate the selection as LTR (LRI…PDI)', mode: 'isolate', options: { isolate: 'ltr' }, exact: true },
  { label: 'Isolate the selection as RTL (RLI…PDI)', mode: 'isolate', options: { isolate: 'rtl' }, exact: true },
  { label: 'Isolate the format placeholders', mode: 'placeholders', options: { style: 'isolate' } },
  { label: 'Mark the format placeholders (LRM/RLM)', mode: 'placeholders', options: { style: 'marks' } },
  { label: 'Isolate the opposite-direction runs', mode: 'runs', options: {} },
  { label: 'Remove unpaired bidi controls', mode: 'strip', options: { only: 'unpaired' } },
  { label: 'Remove all bidi controls', mode: 'strip', options: { only: 'all' } },
];

/** The extension's state while active. */
class BidiExtension {
  constructor(context) {
    this.context = context;
    this.output = vscode.window.createOutputChannel('bidi-lsp');
    this.diagnostics = vscode.languages.createDiagnosticCollection('bidi-lsp');
    this.client = null;
    this.starting = null;
    this.open = new Set(); // URIs the daemon has open
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
    return languages.includes('*') || languages.includes(document.languageId);
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
    const command = config.get('path', 'bidi-lsp') || 'bidi-lsp';
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
      this.open.clear();
      this.diagnostics.clear();
      if (this.client === client) this.client = null;
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
      clientInfo: { name: 'bidi-lsp-vscode', version: '0.1.0' },
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
    for (const document of vscode.workspace.textDocuments) this.didOpen(document);
    return client;
  }

  async stop() {
    const client = this.client;
    this.client = null;
    this.open.clear();
    this.diagnostics.clear();
    if (client) await client.stop();
  }

  /** Sends a request for an open document; ensures it is open first. */
  async request(method, params, token) {
    const client = await this.start();
    return client.request(method, params, token);
  }

  // ------------------------------------------------------------- documents

  didOpen(document) {
    const key = document.uri.toString();
    if (!this.client || this.open.has(key) || !this.wants(document)) return;
    this.open.add(key);
    this.client.notify('textDocument/didOpen', {
      textDocument: { uri: key, languageId: document.languageId, version: document.version, text: document.getText() },
    });
  }

  didChange(event) {
    const key = event.document.uri.toString();
    if (!this.client || !this.open.has(key) || event.contentChanges.length === 0) return;
    this.client.notify('textDocument/didChange', {
      textDocument: { uri: key, version: event.document.version },
      contentChanges: event.contentChanges.map((change) => ({ range: fromRange(change.range), text: change.text })),
    });
    this.hintsChanged.fire();
  }

  didClose(document) {
    const key = document.uri.toString();
    if (!this.open.has(key)) return;
    this.open.delete(key);
    this.diagnostics.delete(document.uri);
    if (this.client) this.client.notify('textDocument/didClose', { textDocument: { uri: key } });
  }

  /** Makes sure the daemon has {document}; returns its LSP identifier. */
  async ensure(document) {
    await this.start();
    const key = document.uri.toString();
    if (!this.open.has(key)) {
      if (!this.wants(document)) {
        // A command on a document of another language opens it anyway.
        this.open.add(key);
        this.client.notify('textDocument/didOpen', {
          textDocument: { uri: key, languageId: document.languageId, version: document.version, text: document.getText() },
        });
      } else {
        this.didOpen(document);
      }
    }
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

  // ----------------------------------------------------- language features

  workspaceEdit(lspEdit) {
    const edit = new vscode.WorkspaceEdit();
    for (const [uri, edits] of Object.entries(lspEdit.changes || {})) {
      edit.set(vscode.Uri.parse(uri), edits.map((e) => new vscode.TextEdit(toRange(e.range), e.newText)));
    }
    for (const change of lspEdit.documentChanges || []) {
      if (!change.textDocument) continue;
      edit.set(vscode.Uri.parse(change.textDocument.uri),
        change.edits.map((e) => new vscode.TextEdit(toRange(e.range), e.newText)));
    }
    return edit;
  }

  async provideCodeActions(document, range, context, token) {
    const textDocument = await this.ensure(document);
    const only = context.only ? [context.only.value] : undefined;
    const actions = await this.request('textDocument/codeAction', {
      textDocument, range: fromRange(range),
      context: { diagnostics: context.diagnostics.map((d) => this.toLspDiagnostic(d)), only },
    }, token);
    return (actions || []).map((lsp) => {
      const action = new vscode.CodeAction(lsp.title, vscode.CodeActionKind.Empty.append(lsp.kind));
      if (lsp.edit) action.edit = this.workspaceEdit(lsp.edit);
      action.isPreferred = lsp.isPreferred === true;
      const diagnostics = context.diagnostics.filter((d) => (lsp.diagnostics || [])
        .some((l) => l.code === d.code && l.range.start.line === d.range.start.line
          && l.range.start.character === d.range.start.character));
      if (diagnostics.length > 0) action.diagnostics = diagnostics;
      return action;
    });
  }

  async provideHover(document, position, token) {
    const textDocument = await this.ensure(document);
    const hover = await this.request('textDocument/hover', { textDocument, position: fromPosition(position) }, token);
    if (!hover || !hover.contents) return null;
    const value = typeof hover.contents === 'string' ? hover.contents : hover.contents.value;
    const markdown = new vscode.MarkdownString();
    markdown.appendCodeblock(value, 'text');
    return new vscode.Hover(markdown, hover.range ? toRange(hover.range) : undefined);
  }

  async provideInlayHints(document, range, token) {
    if (!this.config().get('inlayHints', true)) return [];
    const textDocument = await this.ensure(document);
    const hints = await this.request('textDocument/inlayHint', { textDocument, range: fromRange(range) }, token);
    return (hints || []).map((lsp) => {
      const label = typeof lsp.label === 'string' ? lsp.label : lsp.label.map((part) => part.value).join('');
      const hint = new vscode.InlayHint(toPosition(lsp.position), label);
      if (lsp.tooltip) hint.tooltip = typeof lsp.tooltip === 'string' ? lsp.tooltip : lsp.tooltip.value;
      hint.paddingLeft = lsp.paddingLeft === true;
      hint.paddingRight = lsp.paddingRight === true;
      return hint;
    });
  }

  provideTextDocumentContent(uri) {
    return this.visualTexts.get(uri.path) || '';
  }

  // -------------------------------------------------------------- commands

  editor() {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('no active editor');
    return editor;
  }

  /** The natural direction of the selected lines, as a message. */
  async showDirection() {
    const editor = this.editor();
    const textDocument = await this.ensure(editor.document);
    const lines = [];
    for (const selection of editor.selections) {
      const result = await this.request('bidi/naturalDirection', { textDocument, range: linesRange(editor.document, selection) });
      for (const p of result.paragraphs) {
        const strong = p.strongCharacter
          ? `, first strong character at ${p.strongCharacter.line + 1}:${p.strongCharacter.character + 1}` : '';
        lines.push(`Line ${p.line + 1}: ${p.direction} (${p.basis}${strong})`);
      }
    }
    const text = lines.join('\n');
    vscode.window.showInformationMessage(text);
    return text;
  }

  /** The selected lines in visual order, in a read-only document. Each
   * line is wrapped in LRO…PDF so that the editor shows it as it is. */
  async showVisualOrder() {
    const editor = this.editor();
    const textDocument = await this.ensure(editor.document);
    const lines = [];
    for (const selection of editor.selections) {
      const result = await this.request('bidi/visualOrder', {
        textDocument, range: linesRange(editor.document, selection), include: ['visualText'],
      });
      for (const p of result.paragraphs) lines.push(p.lines.map((l) => l.visualText).join(''));
    }
    const path = `/${editor.document.uri.path.split('/').pop() || 'untitled'} (visual order)`;
    this.visualTexts.set(path, lines.map((line) => `\u202d${line}\u202c`).join('\n') + '\n');
    const uri = vscode.Uri.parse(`bidi-lsp-visual:${path}`);
    this.visualChanged.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    return lines;
  }

  /** Runs insertMarks {mode} over each selection and applies the edits. */
  async insertMarks(mode, options = {}, exact = false) {
    const editor = this.editor();
    const document = editor.document;
    const textDocument = await this.ensure(document);
    const edit = new vscode.WorkspaceEdit();
    let count = 0;
    const version = document.version;
    for (const selection of editor.selections) {
      if (exact && selection.isEmpty) {
        vscode.window.showWarningMessage('bidi-lsp: select the text to isolate');
        return 0;
      }
      const range = exact ? fromRange(selection) : linesRange(document, selection);
      const result = await this.request('bidi/insertMarks', { textDocument, mode, range, ...options });
      for (const e of result.edits) {
        edit.replace(document.uri, toRange(e.range), e.newText);
        count += 1;
      }
    }
    if (count === 0) {
      vscode.window.setStatusBarMessage(`bidi-lsp: ${mode}: nothing to do`, 3000);
      return 0;
    }
    if (document.version !== version) throw new Error('the document changed meanwhile; try again');
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit could not be applied');
    return count;
  }

  async chooseMarks() {
    const choice = await vscode.window.showQuickPick(MARK_CHOICES, { placeHolder: 'Insert bidi marks' });
    if (!choice) return 0;
    return this.insertMarks(choice.mode, choice.options, choice.exact === true);
  }

  /** Applies the preferred quick fix at the cursor, or with {all} fix-all. */
  async fix(all) {
    const editor = this.editor();
    const document = editor.document;
    const line = editor.selection.active.line;
    const range = all
      ? new vscode.Range(0, 0, document.lineCount - 1, document.lineAt(document.lineCount - 1).text.length)
      : new vscode.Range(line, 0, line + 1, 0);
    const diagnostics = this.diagnostics.get(document.uri) || [];
    const actions = await this.provideCodeActions(document, range, {
      diagnostics: diagnostics.filter((d) => all || d.range.start.line === line),
      only: all ? vscode.CodeActionKind.SourceFixAll : vscode.CodeActionKind.QuickFix,
    });
    const action = actions.find((a) => a.isPreferred) || actions[0];
    if (!action) {
      vscode.window.setStatusBarMessage('bidi-lsp: nothing to fix', 3000);
      return null;
    }
    await vscode.workspace.applyEdit(action.edit);
    return action.title;
  }

  async restart() {
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

module.exports = { activate, deactivate, linesRange, bidiSettings };
