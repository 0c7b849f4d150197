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

/** Localization file extensions and the languageId the daemon knows each by. */
const LOCALIZATION_EXTENSIONS = Object.freeze({
  strings: 'strings', stringsdict: 'stringsdict', xcstrings: 'xcstrings', arb: 'arb',
  po: 'po', pot: 'po', properties: 'properties', xliff: 'xliff', xlf: 'xliff', resx: 'resx',
});
const LOCALIZATION_LANGUAGES = new Set(Object.values(LOCALIZATION_EXTENSIONS));

/** The languageId to send for {document}: its localization format when its
 * file is one (VS Code calls a .resx or .xliff file `xml`), else VS Code's. */
function lspLanguageId(document) {
  const name = document.uri.path.split('/').pop() || '';
  const dot = name.lastIndexOf('.');
  const format = dot > 0 ? LOCALIZATION_EXTENSIONS[name.slice(dot + 1).toLowerCase()] : undefined;
  return format || document.languageId;
}

/** Whether {document} is a localization file, whose paragraphs are values. */
function isLocalization(document) {
  return LOCALIZATION_LANGUAGES.has(lspLanguageId(document));
}

/** The range a command acts on for {selection}: the selection itself when it
 * is not empty; else, in a localization file, the cursor (the daemon takes
 * the value under it); else the cursor's line. */
function targetRange(document, selection) {
  if (!selection.isEmpty || isLocalization(document)) return fromRange(selection);
  return linesRange(document, selection);
}

/** Lines around the visible ones that the extension's requests cover too. */
const VIEW_MARGIN = 40;

/** The bidiLsp/visualOrder options for text shown to the user: combining
 * marks after their letter (UAX #9 L3), no bidi controls. */
const VISUAL_OPTIONS = Object.freeze({ combiningMarks: 'afterBase', controls: 'strip' });
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Visual-order {text} as the editor must show it: in LRO…PDF, so that it is
 * not reordered again, without a control left inside (an isolate, from a
 * daemon that ignores controls: strip, would end the override). */
function forcedLtr(text) {
  return `\u202d${text.replace(CONTROLS, '')}\u202c`;
}

/** Whether the LSP position {a} comes before {b}. */
const before = (a, b) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** Whether the ranges {a} and {b} (LSP or vscode) touch. */
const touches = (a, b) => !(before(a.end, b.start) || before(b.end, a.start));

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
    this.forced = new Set(); // URIs opened by a command although not in bidiLsp.languages
    this.restartDelay = 500; // ms before restarting a daemon that died; doubled each time in a row
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

  /** Code actions for {range}. Quick fixes cover every hazard on its lines
   * (in a localization file, of the value under it), not only those the
   * cursor touches; each fix is offered once, though the daemon offers it
   * once per diagnostic of its control. Refactorings are for {range}. */
  async provideCodeActions(document, range, context, token) {
    const textDocument = await this.ensure(document);
    const only = context.only && context.only.value ? context.only : undefined;
    const quickFix = vscode.CodeActionKind.QuickFix;
    const asks = [];
    if (!only || only.contains(quickFix) || quickFix.contains(only)) {
      const fixRange = isLocalization(document) ? fromRange(range) : linesRange(document, range);
      const diagnostics = [...context.diagnostics];
      for (const d of this.diagnostics.get(document.uri) || []) {
        if (!diagnostics.includes(d) && touches(d.range, fixRange)) diagnostics.push(d);
      }
      asks.push({ range: fixRange, diagnostics, only: [only && quickFix.contains(only) ? only.value : 'quickfix'] });
    }
    if (!only) asks.push({ range: fromRange(range), diagnostics: context.diagnostics, only: ['refactor'] });
    else if (!only.contains(quickFix) && !quickFix.contains(only)) {
      asks.push({ range: fromRange(range), diagnostics: context.diagnostics, only: [only.value] });
    }
    const seen = new Map();
    const result = [];
    for (const ask of asks) {
      const actions = await this.request('textDocument/codeAction', {
        textDocument, range: ask.range,
        context: { diagnostics: ask.diagnostics.map((d) => this.toLspDiagnostic(d)), only: ask.only },
      }, token);
      for (const lsp of actions || []) {
        const fixed = ask.diagnostics.filter((d) => (lsp.diagnostics || [])
          .some((l) => l.code === d.code && l.range.start.line === d.range.start.line
            && l.range.start.character === d.range.start.character));
        const key = JSON.stringify([lsp.kind, lsp.title, lsp.edit]);
        const same = seen.get(key);
        if (same) {
          same.isPreferred = same.isPreferred || lsp.isPreferred === true;
          for (const d of fixed) if (!(same.diagnostics || []).includes(d)) same.diagnostics = [...(same.diagnostics || []), d];
          continue;
        }
        const action = new vscode.CodeAction(lsp.title, vscode.CodeActionKind.Empty.append(lsp.kind));
        if (lsp.edit) action.edit = this.workspaceEdit(lsp.edit);
        action.isPreferred = lsp.isPreferred === true;
        if (fixed.length > 0) action.diagnostics = fixed;
        seen.set(key, action);
        result.push(action);
      }
    }
    return result;
  }

  async provideHover(document, position, token) {
    const textDocument = await this.ensure(document);
    const hover = await this.request('textDocument/hover', { textDocument, position: fromPosition(position) }, token);
    if (!hover || !hover.contents) return null;
    const value = (typeof hover.contents === 'string' ? hover.contents : hover.contents.value)
      .replace(/^(Visual order[^:\n]*: )(.*)$/gm, (_, label, text) => label + forcedLtr(text));
    const markdown = new vscode.MarkdownString();
    markdown.appendCodeblock(value, 'text');
    return new vscode.Hover(markdown, hover.range ? toRange(hover.range) : undefined);
  }

  /** The line spans [first, last] that editors show of {document}, each
   * grown by VIEW_MARGIN lines, sorted and merged; [] when none shows it. */
  viewSpans(document) {
    const key = document.uri.toString();
    const spans = [];
    for (const editor of vscode.window.visibleTextEditors || []) {
      if (editor.document.uri.toString() !== key) continue;
      for (const visible of editor.visibleRanges || []) {
        spans.push([Math.max(0, visible.start.line - VIEW_MARGIN),
          Math.min(document.lineCount - 1, visible.end.line + VIEW_MARGIN)]);
      }
    }
    spans.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const span of spans) {
      const last = merged[merged.length - 1];
      if (last && span[0] <= last[1] + 1) last[1] = Math.max(last[1], span[1]);
      else merged.push(span);
    }
    return merged;
  }

  /** The parts of {range} in view. VS Code asks for the visible lines
   * already; a larger range is cut to them (and their margin). A document
   * that no editor shows keeps {range}. */
  inView(document, range) {
    const spans = this.viewSpans(document);
    if (spans.length === 0) return [fromRange(range)];
    const parts = [];
    for (const [first, last] of spans) {
      const spanStart = { line: first, character: 0 };
      const spanEnd = last + 1 < document.lineCount
        ? { line: last + 1, character: 0 } : { line: last, character: document.lineAt(last).text.length };
      const start = before(range.start, spanStart) ? spanStart : fromPosition(range.start);
      const end = before(spanEnd, range.end) ? spanEnd : fromPosition(range.end);
      if (!before(end, start)) parts.push({ start, end });
    }
    return parts;
  }

  async provideInlayHints(document, range, token) {
    if (!this.config().get('inlayHints', true)) return [];
    const textDocument = await this.ensure(document);
    const hints = [];
    for (const part of this.inView(document, range)) {
      hints.push(...(await this.request('textDocument/inlayHint', { textDocument, range: part }, token) || []));
    }
    return hints.map((lsp) => {
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
      const result = await this.request('bidi/naturalDirection', { textDocument, range: targetRange(editor.document, selection) });
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
        textDocument, range: targetRange(editor.document, selection), include: ['visualText'], ...VISUAL_OPTIONS,
      });
      for (const p of result.paragraphs) lines.push(p.lines.map((l) => l.visualText).join('').replace(CONTROLS, ''));
    }
    const path = `/${editor.document.uri.path.split('/').pop() || 'untitled'} (visual order)`;
    this.visualTexts.set(path, lines.map(forcedLtr).join('\n') + '\n');
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
      const range = exact ? fromRange(selection) : targetRange(document, selection);
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

  /** Applies the preferred quick fix of the hazard nearest the cursor on its
   * line (of the value under it in a localization file), or with {all}
   * fix-all. */
  async fix(all) {
    const editor = this.editor();
    const document = editor.document;
    const cursor = editor.selection.active;
    const range = all
      ? new vscode.Range(0, 0, document.lineCount - 1, document.lineAt(document.lineCount - 1).text.length)
      : editor.selection;
    const actions = await this.provideCodeActions(document, range, {
      diagnostics: all ? this.diagnostics.get(document.uri) || [] : [],
      only: all ? vscode.CodeActionKind.SourceFixAll : vscode.CodeActionKind.QuickFix,
    });
    const distance = (a) => Math.min(Infinity, ...(a.diagnostics || []).map((d) => Math.abs(d.range.start.line - cursor.line) * 1e6
      + Math.abs(d.range.start.character - cursor.character)));
    const preferred = actions.filter((a) => a.isPreferred);
    const action = (preferred.length > 0 ? preferred : actions).sort((a, b) => distance(a) - distance(b))[0];
    if (!action) {
      vscode.window.setStatusBarMessage('bidi-lsp: nothing to fix', 3000);
      return null;
    }
    await vscode.workspace.applyEdit(action.edit);
    return action.title;
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

module.exports = { activate, deactivate, linesRange, bidiSettings, lspLanguageId, VIEW_MARGIN };
