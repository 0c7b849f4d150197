'use strict';
// bidi-lsp for VS Code: the language features (code actions, hover, inlay
// hints, the visual-order documents), methods of the extension's state
// (extension.js). What they ask the daemon covers the lines editors show,
// plus a margin.

const vscode = require('vscode');
const {
  toPosition, toRange, fromPosition, fromRange, linesRange, before, touches, forcedLtr,
} = require('./convert');
const { isStructured } = require('./languages');

/** Lines around the visible ones that the extension's requests cover too. */
const VIEW_MARGIN = 50;

/** The methods of BidiExtension that provide the language features. */
const features = {
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
  },

  /** Code actions for {range}. Quick fixes cover every hazard on its lines
   * (in a structured document, of the value, block or cue line under it), not only those the
   * cursor touches; each fix is offered once, though the daemon offers it
   * once per diagnostic of its control. Refactorings are for {range}. */
  async provideCodeActions(document, range, context, token) {
    const textDocument = await this.ensure(document);
    const only = context.only && context.only.value ? context.only : undefined;
    const quickFix = vscode.CodeActionKind.QuickFix;
    const asks = [];
    if (!only || only.contains(quickFix) || quickFix.contains(only)) {
      const fixRange = isStructured(document) ? fromRange(range) : linesRange(document, range);
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
  },

  async provideHover(document, position, token) {
    const textDocument = await this.ensure(document);
    const hover = await this.request('textDocument/hover', { textDocument, position: fromPosition(position) }, token);
    if (!hover || !hover.contents) return null;
    const value = (typeof hover.contents === 'string' ? hover.contents : hover.contents.value)
      .replace(/^(Visual order[^:\n]*: )(.*)$/gm, (_, label, text) => label + forcedLtr(text));
    const markdown = new vscode.MarkdownString();
    markdown.appendCodeblock(value, 'text');
    return new vscode.Hover(markdown, hover.range ? toRange(hover.range) : undefined);
  },

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
  },

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
  },

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
  },

  provideTextDocumentContent(uri) {
    return this.visualTexts.get(uri.path) || '';
  },
};

module.exports = { features, VIEW_MARGIN };
