'use strict';
// A small fake of the `vscode` API, enough to activate extension.js in
// node and drive it: it records registrations, holds text documents, applies
// WorkspaceEdits the way VS Code does (firing onDidChangeTextDocument with
// UTF-16 ranges), answers dialogs from a script, and has editors with visible
// ranges that scroll, asking the inlay-hint providers for what they show as
// VS Code does. It is NOT VS Code: it
// checks that the extension uses the API consistently, not how VS Code
// renders anything.

class Position {
  constructor(line, character) {
    if (line < 0 || character < 0) throw new Error(`bad position ${line}:${character}`);
    this.line = line;
    this.character = character;
  }

  compareTo(other) {
    return this.line !== other.line ? this.line - other.line : this.character - other.character;
  }

  isEqual(other) {
    return this.compareTo(other) === 0;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
    if (this.start.compareTo(this.end) > 0) [this.start, this.end] = [this.end, this.start];
  }

  get isEmpty() {
    return this.start.isEqual(this.end);
  }
}

class Selection extends Range {
  constructor(anchor, active) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}

class Uri {
  constructor(scheme, path, text) {
    this.scheme = scheme;
    this.path = path;
    this.text = text;
  }

  static parse(text) {
    const colon = text.indexOf(':');
    const scheme = text.slice(0, colon);
    let path = text.slice(colon + 1);
    if (path.startsWith('//')) path = path.slice(path.indexOf('/', 2));
    return new Uri(scheme, decodeURIComponent(path), text);
  }

  static file(path) {
    return new Uri('file', path, `file://${encodeURI(path)}`);
  }

  toString() {
    return this.text;
  }
}

class Disposable {
  constructor(callback = () => {}) {
    this.callback = callback;
  }

  dispose() {
    this.callback();
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return new Disposable(() => this.listeners.delete(listener));
    };
  }

  fire(value) {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose() {
    this.listeners.clear();
  }
}

const DiagnosticSeverity = Object.freeze({ Error: 0, Warning: 1, Information: 2, Hint: 3 });
const ViewColumn = Object.freeze({ Active: -1, Beside: -2, One: 1 });

class Diagnostic {
  constructor(range, message, severity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }

  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }

  contains(other) {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
}
CodeActionKind.Empty = new CodeActionKind('');
CodeActionKind.QuickFix = new CodeActionKind('quickfix');
CodeActionKind.Refactor = new CodeActionKind('refactor');
CodeActionKind.RefactorRewrite = new CodeActionKind('refactor.rewrite');
CodeActionKind.Source = new CodeActionKind('source');
CodeActionKind.SourceFixAll = new CodeActionKind('source.fixAll');

class CodeAction {
  constructor(title, kind) {
    this.title = title;
    this.kind = kind;
  }
}

class TextEdit {
  constructor(range, newText) {
    this.range = range;
    this.newText = newText;
  }
}

class WorkspaceEdit {
  constructor() {
    this.edits = new Map();
  }

  set(uri, edits) {
    this.edits.set(uri.toString(), { uri, edits: [...edits] });
  }

  replace(uri, range, newText) {
    const entry = this.edits.get(uri.toString()) || { uri, edits: [] };
    entry.edits.push(new TextEdit(range, newText));
    this.edits.set(uri.toString(), entry);
  }

  insert(uri, position, newText) {
    this.replace(uri, new Range(position, position), newText);
  }

  entries() {
    return [...this.edits.values()].map(({ uri, edits }) => [uri, edits]);
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }

  appendText(text) {
    this.value += text;
    return this;
  }

  appendCodeblock(code, language = '') {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

class Hover {
  constructor(contents, range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
    this.range = range;
  }
}

class InlayHint {
  constructor(position, label, kind) {
    this.position = position;
    this.label = label;
    this.kind = kind;
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }

  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }

  dispose() {}
}

/** A text document: UTF-16 positions, lines split at \n, \r\n and \r. */
class TextDocument {
  constructor(uri, languageId, text) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = 1;
    this.text = text;
    this.isClosed = false;
  }

  getText(range) {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  lineStarts() {
    const starts = [0];
    const text = this.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\r' && text[i + 1] === '\n') {
        starts.push(i + 2);
        i++;
      } else if (c === '\n' || c === '\r') {
        starts.push(i + 1);
      }
    }
    return starts;
  }

  get lineCount() {
    return this.lineStarts().length;
  }

  lineEnd(starts, line) {
    if (line + 1 >= starts.length) return this.text.length;
    let end = starts[line + 1];
    if (this.text[end - 1] === '\n') end--;
    if (this.text[end - 1] === '\r') end--;
    return end;
  }

  lineAt(line) {
    const starts = this.lineStarts();
    return { lineNumber: line, text: this.text.slice(starts[line], this.lineEnd(starts, line)) };
  }

  offsetAt(position) {
    const starts = this.lineStarts();
    if (position.line >= starts.length) return this.text.length;
    return Math.min(starts[position.line] + position.character, this.lineEnd(starts, position.line));
  }

  positionAt(offset) {
    const starts = this.lineStarts();
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
    return new Position(line, offset - starts[line]);
  }

  /** Applies edits (against the current text) as VS Code does: one event,
   * changes from the last to the first. */
  apply(edits) {
    const sorted = [...edits].sort((a, b) => b.range.start.compareTo(a.range.start));
    const changes = [];
    for (const edit of sorted) {
      const start = this.offsetAt(edit.range.start);
      const end = this.offsetAt(edit.range.end);
      const range = new Range(this.positionAt(start), this.positionAt(end));
      this.text = this.text.slice(0, start) + edit.newText + this.text.slice(end);
      changes.push({ range, rangeOffset: start, rangeLength: end - start, text: edit.newText });
    }
    this.version += 1;
    return changes;
  }
}

/** A fresh fake `vscode` module. {manifest} is the extension's package.json:
 * as in VS Code, a setting that is not set has its contributed default. */
function createVscode(manifest = {}) {
  const properties = ((manifest.contributes || {}).configuration || {}).properties || {};
  const registered = {
    commands: new Map(), codeActions: [], hovers: [], inlayHints: [], contentProviders: new Map(), inlayHintsChanged: 0,
  };
  const messages = { info: [], warning: [], error: [], status: [] };
  const quickPickAnswers = [];
  const settings = {};
  const events = {
    open: new EventEmitter(), change: new EventEmitter(), close: new EventEmitter(), configuration: new EventEmitter(),
    visibleRanges: new EventEmitter(), activeEditor: new EventEmitter(),
  };
  const editors = new Map(); // one editor per document, by URI
  const view = { rows: 40 }; // lines an editor shows
  const collections = [];
  const shown = [];

  const window = {
    activeTextEditor: undefined,
    visibleTextEditors: [],
    onDidChangeTextEditorVisibleRanges: events.visibleRanges.event,
    onDidChangeActiveTextEditor: events.activeEditor.event,
    createOutputChannel(name) {
      const channel = { name, lines: [], text: '' };
      channel.append = (text) => { channel.text += text; };
      channel.appendLine = (text) => { channel.text += `${text}\n`; channel.lines.push(text); };
      channel.show = () => {};
      channel.dispose = () => {};
      return channel;
    },
    showInformationMessage: async (text) => { messages.info.push(text); },
    showWarningMessage: async (text) => { messages.warning.push(text); },
    showErrorMessage: async (text) => { messages.error.push(text); },
    setStatusBarMessage: (text) => { messages.status.push(text); return new Disposable(); },
    showQuickPick: async (items) => {
      const answer = quickPickAnswers.shift();
      return typeof answer === 'function' ? items.find(answer) : answer;
    },
    showTextDocument: async (document, options) => {
      shown.push({ document, options });
      return { document };
    },
  };

  const workspace = {
    textDocuments: [],
    getConfiguration(section) {
      return {
        get: (key, fallback) => {
          const name = `${section}.${key}`;
          if (Object.prototype.hasOwnProperty.call(settings, name)) return settings[name];
          if (properties[name] && 'default' in properties[name]) return properties[name].default;
          return fallback;
        },
      };
    },
    onDidOpenTextDocument: events.open.event,
    onDidChangeTextDocument: events.change.event,
    onDidCloseTextDocument: events.close.event,
    onDidChangeConfiguration: events.configuration.event,
    registerTextDocumentContentProvider(scheme, provider) {
      registered.contentProviders.set(scheme, provider);
      return new Disposable(() => registered.contentProviders.delete(scheme));
    },
    async openTextDocument(uri) {
      const provider = registered.contentProviders.get(uri.scheme);
      if (!provider) throw new Error(`no provider for ${uri.scheme}`);
      return new TextDocument(uri, 'plaintext', await provider.provideTextDocumentContent(uri));
    },
    async applyEdit(edit) {
      for (const [uri, edits] of edit.entries()) {
        const document = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (!document) return false;
        const contentChanges = document.apply(edits);
        events.change.fire({ document, contentChanges, reason: undefined });
      }
      return true;
    },
  };

  const languages = {
    createDiagnosticCollection(name) {
      const map = new Map();
      const collection = {
        name,
        set: (uri, diagnostics) => { map.set(uri.toString(), diagnostics); },
        get: (uri) => map.get(uri.toString()),
        delete: (uri) => { map.delete(uri.toString()); },
        clear: () => map.clear(),
        dispose: () => map.clear(),
        entries: () => [...map.entries()],
      };
      collections.push(collection);
      return collection;
    },
    registerCodeActionsProvider(selector, provider, metadata) {
      registered.codeActions.push({ selector, provider, metadata });
      return new Disposable();
    },
    registerHoverProvider(selector, provider) {
      registered.hovers.push({ selector, provider });
      return new Disposable();
    },
    registerInlayHintsProvider(selector, provider) {
      registered.inlayHints.push({ selector, provider });
      const subscription = provider.onDidChangeInlayHints
        ? provider.onDidChangeInlayHints(() => { registered.inlayHintsChanged += 1; }) : new Disposable();
      return new Disposable(() => subscription.dispose());
    },
  };

  const commands = {
    registerCommand(id, callback) {
      if (registered.commands.has(id)) throw new Error(`command ${id} registered twice`);
      registered.commands.set(id, callback);
      return new Disposable(() => registered.commands.delete(id));
    },
    async executeCommand(id, ...args) {
      const callback = registered.commands.get(id);
      if (!callback) throw new Error(`command ${id} not found`);
      return callback(...args);
    },
  };

  const vscode = {
    Position, Range, Selection, Uri, Disposable, EventEmitter, Diagnostic, DiagnosticSeverity, ViewColumn,
    CodeAction, CodeActionKind, TextEdit, WorkspaceEdit, MarkdownString, Hover, InlayHint, CancellationTokenSource,
    window, workspace, languages, commands,
  };

  // Test controls, not part of the vscode API.
  vscode.test = {
    registered, messages, quickPickAnswers, settings, collections, shown,
    /** Opens a document as VS Code does, and makes it the active editor. */
    openDocument(path, languageId, text) {
      const document = new TextDocument(Uri.file(path), languageId, text);
      workspace.textDocuments.push(document);
      events.open.fire(document);
      vscode.test.select(document, new Selection(new Position(0, 0), new Position(0, 0)));
      return document;
    },
    closeDocument(document) {
      editors.delete(document.uri.toString());
      window.visibleTextEditors = window.visibleTextEditors.filter((e) => e.document !== document);
      if (window.activeTextEditor && window.activeTextEditor.document === document) window.activeTextEditor = undefined;
      workspace.textDocuments = workspace.textDocuments.filter((d) => d !== document);
      document.isClosed = true;
      events.close.fire(document);
    },
    /** Makes {document} the active (and only visible) editor, with
     * {selections}; the editor keeps its scroll position. */
    select(document, ...selections) {
      const key = document.uri.toString();
      let editor = editors.get(key);
      if (!editor) {
        editor = { document, visibleRanges: [] };
        editors.set(key, editor);
        vscode.test.scroll(editor, 0, false);
      }
      editor.selection = selections[0];
      editor.selections = selections;
      const changed = window.activeTextEditor !== editor;
      window.activeTextEditor = editor;
      window.visibleTextEditors = [editor];
      if (changed) events.activeEditor.fire(editor);
    },
    view,
    /** Scrolls {editor} so that {firstLine} is its top line: its visible
     * range is then {view.rows} lines (fewer at the end). */
    scroll(editor, firstLine, fire = true) {
      const last = Math.min(editor.document.lineCount - 1, firstLine + view.rows - 1);
      editor.visibleRanges = [new Range(firstLine, 0, last, editor.document.lineAt(last).text.length)];
      if (fire) events.visibleRanges.fire({ textEditor: editor, visibleRanges: editor.visibleRanges });
    },
    /** Asks the inlay-hint providers for the hints of {editor}'s visible
     * ranges, as VS Code does when it shows, scrolls or edits a document. */
    async showInlayHints(editor = window.activeTextEditor) {
      const hints = [];
      for (const { provider } of registered.inlayHints) {
        for (const range of editor.visibleRanges) {
          hints.push(...(await provider.provideInlayHints(editor.document, range,
            new CancellationTokenSource().token) || []));
        }
      }
      return hints;
    },
    /** Types or replaces text as a user would: one change event. */
    edit(document, range, text) {
      const contentChanges = document.apply([new TextEdit(range, text)]);
      events.change.fire({ document, contentChanges, reason: undefined });
    },
    changeConfiguration(changes) {
      Object.assign(settings, changes);
      const keys = Object.keys(changes);
      events.configuration.fire({
        affectsConfiguration: (section) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
      });
    },
    TextDocument,
  };
  return vscode;
}

module.exports = { createVscode };
