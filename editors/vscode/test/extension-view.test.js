'use strict';
// extension.js against the fake `vscode` and the real daemon: what it asks
// for by itself (the visible lines only), quick fixes for every hazard of the
// line, visual text that is not reordered again, localization files.
// Run: BIDI_LSP=/path/to/bidi-lsp node --test editors/vscode/test/

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const h = require('../test-support/harness');

const { vscode, manifest, sent, sentSince } = h;
const { LRI, PDI, FSI, LRO, PDF } = h.chars;
const { Position, Range, Selection } = vscode;
const t = vscode.test;
const { VIEW_MARGIN } = require('../extension');

/** A mixed document of {count} lines, an RLM on every tenth. */
function longText(count) {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(`${i % 2 ? 'שורה' : 'line'} ${i}${i % 10 === 0 ? '\u200f' : ''}`);
  return `${lines.join('\n')}\n`;
}

/** The line span [first, last] of an LSP range. */
const lineSpan = (range) => [range.start.line, range.end.line];

describe('what the extension asks for, and shows', () => {
  const context = { subscriptions: [] };
  let ext;

  before(async () => {
    ext = await h.activate(context);
  });

  after(async () => {
    await h.deactivate(context);
  });

  it('asks the daemon only for the lines in view', async () => {
    const from = sent.length;
    const document = h.open(longText(20000));
    const editor = vscode.window.activeTextEditor;
    // Opening sends the document, and asks for nothing.
    assert.deepEqual(sent.slice(from).map((m) => m.method), ['textDocument/didOpen']);
    let hints = await t.showInlayHints(editor);
    assert.deepEqual(hints.map((hint) => hint.position.line), [0, 10, 20, 30]);
    t.scroll(editor, 12000);
    hints = await t.showInlayHints(editor);
    assert.deepEqual(hints.map((hint) => hint.position.line), [12000, 12010, 12020, 12030]);
    // A provider call for the whole document (another extension's, say) is
    // cut to what the editor shows, and its margin.
    const whole = new Range(0, 0, document.lineCount - 1, 0);
    hints = await t.registered.inlayHints[0].provider.provideInlayHints(document, whole,
      new vscode.CancellationTokenSource().token);
    assert.equal(hints[0].position.line, 12000 - VIEW_MARGIN);
    assert.equal(hints.at(-1).position.line, 12030 + VIEW_MARGIN);
    const requests = sent.slice(from).filter((m) => m.params && m.params.range);
    assert.ok(requests.length > 0);
    for (const request of requests) {
      const [first, last] = lineSpan(request.params.range);
      assert.ok(last - first < 1000, `${request.method} asked for lines ${first}-${last}`);
    }
    t.closeDocument(document);
  });

  it('does not refresh the hints by itself as the user types', async () => {
    const document = h.open(longText(100));
    const events = t.registered.inlayHintsChanged;
    for (let i = 0; i < 10; i++) t.edit(document, new Range(5, 0, 5, 0), 'x');
    await h.assertInSync(ext, document);
    assert.equal(t.registered.inlayHintsChanged, events, 'VS Code asks again by itself once typing pauses');
    t.closeDocument(document);
  });

  it('offers a quick fix for every hazard of the line, each once, wherever the cursor is on it', async (test) => {
    t.settings['bidiLsp.languages'] = ['c'];
    test.after(() => { delete t.settings['bidiLsp.languages']; });
    const document = h.open(h.TROJAN, 'c', 'trojan.c');
    await h.waitFor(() => (ext.diagnostics.get(document.uri) || []).length === 3, 'diagnostics');
    const provider = t.registered.codeActions[0].provider;
    // The cursor at the start of the line, on no control: VS Code passes the
    // diagnostics at the cursor, none.
    const actions = await provider.provideCodeActions(document, new Range(2, 0, 2, 0),
      { diagnostics: [], only: undefined }, new vscode.CancellationTokenSource().token);
    const fixes = actions.filter((a) => a.kind.value === 'quickfix');
    const titles = fixes.map((a) => a.title);
    assert.ok(titles.some((title) => title.startsWith('Remove the RLO')), titles.join(', '));
    assert.ok(titles.some((title) => title.startsWith('Remove the LRI')), titles.join(', '));
    const keys = fixes.map((a) => JSON.stringify([a.title, a.edit.entries()]));
    assert.equal(new Set(keys).size, keys.length, `no fix twice: ${titles.join(', ')}`);
    const removeRlo = fixes.find((a) => a.title.startsWith('Remove the RLO'));
    assert.equal(removeRlo.isPreferred, true);
    assert.deepEqual(removeRlo.diagnostics.map((d) => d.code).sort(), ['bidi.inComment', 'bidi.override']);
    // Refactorings are still offered for the cursor's range.
    assert.ok(actions.some((a) => a.kind.value.startsWith('refactor.rewrite')));

    // The fix command: the preferred fix of the hazard nearest the cursor.
    t.select(document, new Selection(new Position(2, 40), new Position(2, 40)));
    assert.match(await vscode.commands.executeCommand('bidiLsp.fix'), /^Remove the LRI/);
    t.select(document, new Selection(new Position(2, 0), new Position(2, 0)));
    assert.match(await vscode.commands.executeCommand('bidiLsp.fix'), /^Remove the RLO/);
    await h.assertInSync(ext, document);
    t.closeDocument(document);
  });

  it('shows visual text without controls, forced left to right', async () => {
    const document = h.open(`שלום ${LRI}abc${PDI} עולם\n`);
    t.select(document, h.lines(document, 0, 0));
    assert.deepEqual(await vscode.commands.executeCommand('bidiLsp.showVisualOrder'), ['םלוע abc םולש']);
    assert.equal(t.shown.at(-1).document.getText(), `${LRO}םלוע abc םולש${PDF}\n`);
    const hover = await t.registered.hovers[0].provider.provideHover(document, new Position(0, 1),
      new vscode.CancellationTokenSource().token);
    const line = hover.contents[0].value.split('\n').find((l) => l.startsWith('Visual order'));
    // The hover names the controls where they stand (controls: names).
    assert.equal(line.slice(line.indexOf(': ') + 2), `${LRO}םלוע [PDI]abc[LRI] םולש${PDF}`);
    t.closeDocument(document);
  });

  it('joins Arabic letters in the visual-order document unless told not to', async () => {
    // "السلام عليكم" joined and in visual order, as fribidi --nopad --nobreak
    // --clean prints it: meem final, kaf, yeh and lam medial, ain initial;
    // meem isolated, lam-alef final, seen medial, lam initial, alef isolated.
    const shaped = String.fromCodePoint(0xFEE2, 0xFEDC, 0xFEF4, 0xFEE0, 0xFECB, 0x20, 0xFEE1, 0xFEFC, 0xFEB4, 0xFEDF, 0xFE8D);
    const document = h.open('السلام عليكم\n');
    t.select(document, h.lines(document, 0, 0));
    let mark = sent.length;
    assert.deepEqual(await vscode.commands.executeCommand('bidiLsp.showVisualOrder'), [shaped]);
    assert.equal(t.shown.at(-1).document.getText(), `${LRO}${shaped}${PDF}\n`);
    assert.equal(sentSince(mark, 'bidi/visualOrder')[0].shape, true);
    t.settings['bidiLsp.visualOrder.shape'] = false;
    try {
      mark = sent.length;
      assert.deepEqual(await vscode.commands.executeCommand('bidiLsp.showVisualOrder'), ['مكيلع مالسلا']);
      assert.equal(sentSince(mark, 'bidi/visualOrder')[0].shape, false);
    } finally {
      delete t.settings['bidiLsp.visualOrder.shape'];
    }
    t.closeDocument(document);
  });

  it('acts on the selection, else the line, with the mark commands', async () => {
    const document = h.open('%@ مدفوعات %@ بدون %d\n');
    const text = document.lineAt(0).text;
    t.select(document, new Selection(new Position(0, text.indexOf('مدفوعات')), new Position(0, text.indexOf('بدون'))));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolatePlaceholders'), 2);
    assert.equal(document.lineAt(0).text, `%@ مدفوعات ${FSI}%@${PDI} بدون %d`);
    t.select(document, new Selection(new Position(0, 1), new Position(0, 1)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolatePlaceholders'), 4);
    t.closeDocument(document);
  });

  it('contributes the localization languages and sends their languageIds', async () => {
    const contributed = Object.fromEntries(manifest.contributes.languages.map((l) => [l.id, l.extensions]));
    assert.deepEqual(contributed, {
      strings: ['.strings'], stringsdict: ['.stringsdict'], xcstrings: ['.xcstrings'], arb: ['.arb'],
      srt: ['.srt'], vtt: ['.vtt'],
    });
    const defaults = manifest.contributes.configuration.properties['bidiLsp.languages'].default;
    for (const id of ['strings', 'stringsdict', 'xcstrings', 'arb', 'po', 'properties', 'xliff', 'resx', 'srt', 'vtt']) {
      assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), `activation on ${id}`);
      assert.ok(defaults.includes(id), `bidiLsp.languages has ${id}`);
    }
    const cases = [
      ['Localizable.strings', 'strings', 'strings'], ['Localizable.stringsdict', 'stringsdict', 'stringsdict'],
      ['Localizable.xcstrings', 'xcstrings', 'xcstrings'], ['intl_ar.arb', 'arb', 'arb'],
      ['ar.po', 'po', 'po'], ['messages_ar.properties', 'properties', 'properties'],
      ['ar.xliff', 'xml', 'xliff'], ['ar.xlf', 'xml', 'xliff'], ['Strings.ar.resx', 'xml', 'resx'],
      ['notes.md', 'markdown', 'markdown'], ['movie.ar.srt', 'srt', 'srt'], ['movie.he.vtt', 'vtt', 'vtt'],
      ['movie.fa.srt', 'plaintext', 'srt'], ['movie.ur.vtt', 'plaintext', 'vtt'],
    ];
    for (const [name, vscodeId, lspId] of cases) {
      const from = sent.length;
      const document = h.open('"k" = "v";\n', vscodeId, name);
      const opened = sentSince(from, 'textDocument/didOpen');
      assert.equal(opened.length, 1, `${name} is sent`);
      assert.equal(opened[0].textDocument.languageId, lspId, name);
      t.closeDocument(document);
    }
  });

  it('sends the cursor, not its line, from a localization file', async () => {
    const document = h.open('"a" = "x"; "payment" = "%@ مدفوعات بدون فوائد من %@";\n', 'strings', 'Localizable.strings');
    const character = document.lineAt(0).text.indexOf('مدفوعات');
    const cursor = { line: 0, character };
    t.select(document, new Selection(new Position(0, character), new Position(0, character)));
    for (const [command, method] of [['bidiLsp.isolatePlaceholders', 'bidi/insertMarks'],
      ['bidiLsp.makeRtl', 'bidi/insertMarks'], ['bidiLsp.fix', 'textDocument/codeAction']]) {
      const from = sent.length;
      await vscode.commands.executeCommand(command);
      const requests = sentSince(from, method);
      assert.ok(requests.length > 0, command);
      for (const params of requests) assert.deepEqual(params.range, { start: cursor, end: cursor }, command);
    }
    assert.deepEqual(t.messages.error, []);
    t.closeDocument(document);
  });

  it('sends the cursor, not its line, from a subtitle file or Markdown (the cue line or block under it)', async () => {
    for (const [text, languageId, name] of [
      ['1\n00:00:01,000 --> 00:00:02,000\n<i>مرحبا!</i>\n', 'srt', 'movie.ar.srt'],
      ['WEBVTT\n\n00:01.000 --> 00:02.000\n<v Dana>مرحبا!\n', 'vtt', 'movie.ar.vtt'],
      ['- [Apple Pay](https://example.com) متاح الآن\n', 'markdown', 'README.ar.md'],
    ]) {
      const document = h.open(text, languageId, name);
      const line = text.split('\n').findIndex((l) => l.includes('مرحبا') || l.includes('متاح'));
      const character = document.lineAt(line).text.indexOf(languageId === 'markdown' ? 'متاح' : 'مرحبا');
      const cursor = { line, character };
      t.select(document, new Selection(new Position(line, character), new Position(line, character)));
      for (const [command, method] of [['bidiLsp.makeRtl', 'bidi/insertMarks'], ['bidiLsp.fix', 'textDocument/codeAction']]) {
        const from = sent.length;
        await vscode.commands.executeCommand(command);
        const requests = sentSince(from, method);
        assert.ok(requests.length > 0, `${name}: ${command}`);
        for (const params of requests) assert.deepEqual(params.range, { start: cursor, end: cursor }, `${name}: ${command}`);
      }
      t.closeDocument(document);
    }
    assert.deepEqual(t.messages.error, []);
  });
});
