'use strict';
// bidi-lsp for VS Code: LSP values to VS Code's and back (positions, ranges,
// severities), and the visual-order text as the editor must show it.
// Positions: the daemon is asked for "utf-16" positions, VS Code's own, so
// every LSP Position maps to a vscode.Position as is.

const vscode = require('vscode');

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

/** Whether the LSP position {a} comes before {b}. */
const before = (a, b) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** Whether the ranges {a} and {b} (LSP or vscode) touch. */
const touches = (a, b) => !(before(a.end, b.start) || before(b.end, a.start));

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

module.exports = {
  severity, lspSeverity, toPosition, toRange, fromPosition, fromRange, linesRange, before, touches,
  VISUAL_OPTIONS, CONTROLS, forcedLtr,
};
