'use strict';
// bidi-lsp for VS Code: the commands (direction, visual order, marks,
// fixes), methods of the extension's state (extension.js).

const vscode = require('vscode');
const { toRange, fromRange, linesRange, VISUAL_OPTIONS, CONTROLS, forcedLtr } = require('./convert');
const { isStructured } = require('./languages');

/** The range a command acts on for {selection}: the selection itself when it
 * is not empty; else, in a structured document (localization, Markdown,
 * subtitles), the cursor (the daemon takes the value, block or cue line
 * under it); else the cursor's line. */
function targetRange(document, selection) {
  if (!selection.isEmpty || isStructured(document)) return fromRange(selection);
  return linesRange(document, selection);
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

/** The methods of BidiExtension that run the commands. */
const commands = {
  editor() {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('no active editor');
    return editor;
  },

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
  },

  /** The selected lines in visual order, in a read-only document. Each
   * line is wrapped in LRO…PDF so that the editor shows it as it is, its
   * Arabic letters joined by the daemon (bidiLsp.visualOrder.shape): VS
   * Code would shape that text in its stored, visual order, joining the
   * wrong neighbours. */
  async showVisualOrder() {
    const editor = this.editor();
    const textDocument = await this.ensure(editor.document);
    const lines = [];
    for (const selection of editor.selections) {
      const result = await this.request('bidi/visualOrder', {
        textDocument, range: targetRange(editor.document, selection), include: ['visualText'], ...VISUAL_OPTIONS,
        shape: this.config().get('visualOrder.shape', true) !== false,
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
  },

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
  },

  async chooseMarks() {
    const choice = await vscode.window.showQuickPick(MARK_CHOICES, { placeHolder: 'Insert bidi marks' });
    if (!choice) return 0;
    return this.insertMarks(choice.mode, choice.options, choice.exact === true);
  },

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
  },
};

module.exports = { commands, targetRange, MARK_CHOICES };
