'use strict';
// extension.js, activated against a FAKE `vscode` module (test-support/
// fake-vscode.js) and the REAL daemon: registrations, document sync,
// commands applying edits, diagnostics, code actions, hover, inlay hints.
// Run: BIDI_LSP=/path/to/bidi-lsp node --test editors/vscode/test/

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const h = require('../test-support/harness');

const { vscode, manifest, waitFor } = h;
const { RLM, LRM, RLO, LRI, FSI, PDI } = h.chars;
const { Position, Range, Selection } = vscode;
const t = vscode.test;
const { open, lines } = h;

let ext;
let counter = 0;
const daemonText = (document) => h.daemonText(ext, document);
const assertInSync = (document) => h.assertInSync(ext, document);

describe('extension.js with a fake vscode and the real daemon', () => {
  const context = { subscriptions: [] };

  before(async () => {
    ext = await h.activate(context);
  });

  after(async () => {
    const client = ext.client;
    await h.deactivate(context);
    assert.equal(client.running, false, 'deactivate stops the daemon');
  });

  it('registers every contributed command and the providers', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...t.registered.commands.keys()].sort(), contributed);
    for (const id of contributed) {
      assert.ok(manifest.activationEvents.includes(`onCommand:${id}`), `activation event for ${id}`);
    }
    for (const entry of manifest.contributes.menus['bidiLsp.context']) {
      assert.ok(contributed.includes(entry.command), `menu entry ${entry.command}`);
    }
    assert.equal(t.registered.codeActions.length, 1);
    assert.equal(t.registered.hovers.length, 1);
    assert.equal(t.registered.inlayHints.length, 1);
    assert.ok(t.registered.contentProviders.has('bidi-lsp-visual'));
    const properties = Object.keys(manifest.contributes.configuration.properties);
    for (const key of ['path', 'strategy', 'fallback', 'paragraphs', 'layoutDirection', 'sourceLocale', 'diagnostics', 'trace.server']) {
      assert.ok(properties.includes(`bidiLsp.${key}`), `setting bidiLsp.${key}`);
    }
  });

  it('keeps the daemon in sync through incremental UTF-16 changes', async () => {
    const document = open('first line\nשלום 😀 world\nمرحبا\n');
    await assertInSync(document);
    t.edit(document, new Range(1, 5, 1, 7), '🎉🎉'); // replace the emoji (2 UTF-16 units)
    t.edit(document, new Range(0, 0, 0, 0), 'عربي ');
    t.edit(document, new Range(2, 0, 3, 0), '');
    t.edit(document, new Range(1, 14, 1, 14), '\r\nnew\nlines');
    await assertInSync(document);
    // A multi-change event, as VS Code sends for multi-cursor edits.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new Position(0, 0), 'A');
    edit.insert(document.uri, new Position(1, 3), 'B');
    edit.replace(document.uri, new Range(2, 0, 2, 3), 'C');
    assert.equal(await vscode.workspace.applyEdit(edit), true);
    await assertInSync(document);
    t.closeDocument(document);
    await assert.rejects(daemonText(document), /unknown|not open/i);
  });

  it('shows the natural direction of the selected lines', async () => {
    const document = open('مرحبا بكم في bidi-lsp\nHello عالم\n12345\n');
    t.select(document, lines(document, 0, 2));
    const text = await vscode.commands.executeCommand('bidiLsp.showDirection');
    assert.equal(text, [
      'Line 1: rtl (firstStrong, first strong character at 1:1)',
      'Line 2: ltr (firstStrong, first strong character at 2:1)',
      'Line 3: ltr (fallback)',
    ].join('\n'));
    assert.equal(t.messages.info.at(-1), text);
  });

  it('shows the visual order in a read-only document, forced left to right', async () => {
    const document = open('abc אבג def\nשלום (world)\n');
    t.select(document, lines(document, 0, 1));
    const result = await vscode.commands.executeCommand('bidiLsp.showVisualOrder');
    assert.deepEqual(result, ['abc גבא def', '(world) םולש']);
    const shown = t.shown.at(-1).document;
    assert.equal(shown.uri.scheme, 'bidi-lsp-visual');
    assert.equal(shown.getText(), '\u202dabc גבא def\u202c\n\u202d(world) םולש\u202c\n');
  });

  it('inserts direction marks, idempotently', async () => {
    const document = open('Hello عالم\nمرحبا\n');
    t.select(document, lines(document, 0, 1));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.makeRtl'), 1);
    assert.equal(document.getText(), `${RLM}Hello عالم\nمرحبا\n`);
    assert.equal(await vscode.commands.executeCommand('bidiLsp.makeRtl'), 0);
    await assertInSync(document);
    t.select(document, new Selection(new Position(1, 2), new Position(1, 2)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.makeLtr'), 1);
    assert.equal(document.lineAt(1).text, `${LRM}مرحبا`);
  });

  it('works on the last line of a document without a final newline', async () => {
    const document = open('abc\nHello عالم');
    t.select(document, new Selection(new Position(1, 3), new Position(1, 3)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.makeRtl'), 1);
    assert.equal(document.getText(), `abc\n${RLM}Hello عالم`);
    assert.match(await vscode.commands.executeCommand('bidiLsp.showDirection'), /^Line 2: rtl/);
    // Whole lines selected up to the start of the next line leave it out.
    t.select(document, new Selection(new Position(0, 0), new Position(1, 0)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.showDirection'), 'Line 1: ltr (firstStrong, first strong character at 1:1)');
    assert.deepEqual(t.messages.error, []);
  });

  it('isolates the selection, and asks for one', async () => {
    const document = open('قال user: مرحبا 😀\n');
    const start = document.getText().indexOf('user:');
    t.select(document, new Selection(new Position(0, start), new Position(0, start + 5)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolateSelection'), 2);
    assert.equal(document.lineAt(0).text, `قال ${FSI}user:${PDI} مرحبا 😀`);
    t.select(document, new Selection(new Position(0, start), new Position(0, start + 7)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolateSelection'), 0);
    t.select(document, new Selection(new Position(0, 1), new Position(0, 1)));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolateSelection'), 0);
    assert.match(t.messages.warning.at(-1), /select/);
    await assertInSync(document);
  });

  it('isolates placeholders and runs, strips them again', async () => {
    const original = '%@ مدفوعات بدون فوائد من %@\nتواصل معنا: support@example.com أو +1 (555) 123-4567\n';
    const document = open(original);
    t.select(document, lines(document, 0, 0));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolatePlaceholders'), 4);
    assert.equal(document.lineAt(0).text, `${FSI}%@${PDI} مدفوعات بدون فوائد من ${FSI}%@${PDI}`);
    assert.equal(await vscode.commands.executeCommand('bidiLsp.markPlaceholders'), 0, 'already isolated');
    t.select(document, lines(document, 1, 1));
    assert.ok(await vscode.commands.executeCommand('bidiLsp.isolateRuns') > 0);
    assert.equal(await vscode.commands.executeCommand('bidiLsp.isolateRuns'), 0);
    await assertInSync(document);
    t.select(document, lines(document, 0, 1));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.stripUnpaired'), 0, 'balanced isolates stay');
    assert.ok(await vscode.commands.executeCommand('bidiLsp.stripAll') > 0);
    assert.equal(document.getText(), original);
  });

  it('offers every insertMarks mode in a quick pick', async () => {
    const document = open('تم حذف %d ملفات\n');
    t.select(document, lines(document, 0, 0));
    t.quickPickAnswers.push((item) => item.mode === 'placeholders' && item.options.style === 'marks');
    assert.equal(await vscode.commands.executeCommand('bidiLsp.insertMarks'), 1);
    assert.equal(document.lineAt(0).text, `تم حذف %d${RLM} ملفات`);
    t.quickPickAnswers.push(undefined); // dismissed
    assert.equal(await vscode.commands.executeCommand('bidiLsp.insertMarks'), 0);
  });

  it('shows Trojan Source diagnostics and applies quick fixes', async (test) => {
    t.settings['bidiLsp.languages'] = ['c'];
    test.after(() => { delete t.settings['bidiLsp.languages']; });
    const text = `int main(void) {\n  int isAdmin = 0;\n  /*${RLO} } ${LRI}if (isAdmin)${PDI} ${LRI} begin admins only */\n  return 0;\n}\n`;
    counter += 1;
    const document = t.openDocument(`/work/trojan-${counter}.c`, 'c', text);
    const diagnostics = () => ext.diagnostics.get(document.uri) || [];
    await waitFor(() => diagnostics().length > 0, 'diagnostics');
    const rlo = diagnostics().find((d) => d.range.start.character === 4);
    assert.ok(rlo, 'a diagnostic on the RLO');
    assert.equal(rlo.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(rlo.code, 'bidi.inComment');
    assert.equal(rlo.source, 'bidi-lsp');
    assert.equal(rlo.range.start.line, 2);

    // The provider, as VS Code calls it for the lightbulb.
    const provider = t.registered.codeActions[0].provider;
    const actions = await provider.provideCodeActions(document, rlo.range,
      { diagnostics: [rlo], only: vscode.CodeActionKind.QuickFix }, new vscode.CancellationTokenSource().token);
    assert.ok(actions.length > 0);
    assert.ok(actions.every((a) => a.kind.value === 'quickfix'));
    assert.ok(actions.some((a) => a.isPreferred));
    assert.ok(actions.find((a) => a.isPreferred).diagnostics.includes(rlo));

    t.select(document, new Selection(new Position(2, 0), new Position(2, 0)));
    assert.ok(await vscode.commands.executeCommand('bidiLsp.fix'));
    assert.ok(!document.getText().includes(RLO));
    await assertInSync(document);
    assert.ok(await vscode.commands.executeCommand('bidiLsp.fixAll'));
    await waitFor(() => diagnostics().length === 0, 'no diagnostics after fix all');
    assert.equal(await vscode.commands.executeCommand('bidiLsp.fix'), null, 'nothing left to fix');
    assert.deepEqual(t.messages.error, []);
  });

  it('offers the insertMarks modes as refactorings', async () => {
    const document = open('Hello عالم\n');
    const provider = t.registered.codeActions[0].provider;
    const actions = await provider.provideCodeActions(document, new Range(0, 0, 1, 0),
      { diagnostics: [], only: vscode.CodeActionKind.RefactorRewrite });
    const rtl = actions.find((a) => a.kind.value === 'refactor.rewrite.bidi.direction' && /right-to-left/.test(a.title));
    assert.ok(rtl, 'a direction refactoring');
    assert.equal(await vscode.workspace.applyEdit(rtl.edit), true);
    assert.equal(document.lineAt(0).text, `${RLM}Hello عالم`);
    await assertInSync(document);
  });

  it('hovers with the direction and the visual order', async () => {
    const document = open('שלום world\n');
    const hover = await t.registered.hovers[0].provider.provideHover(document, new Position(0, 2),
      new vscode.CancellationTokenSource().token);
    assert.match(hover.contents[0].value, /Direction: rtl/);
    assert.match(hover.contents[0].value, /Visual order/);
    assert.equal(hover.range.start.line, 0);
  });

  it('names the invisible controls in inlay hints, at UTF-16 positions', async () => {
    const document = open(`${RLM}שלום\n😀 ${LRI}x${PDI}\n`);
    const hints = await t.registered.inlayHints[0].provider.provideInlayHints(document, new Range(0, 0, 2, 0),
      new vscode.CancellationTokenSource().token);
    assert.deepEqual(hints.map((h) => [h.position.line, h.position.character, h.label]),
      [[0, 0, 'RLM'], [1, 3, 'LRI'], [1, 5, 'PDI']]);
    assert.match(hints[0].tooltip, /U\+200F/);
  });

  it('sends configuration changes to the daemon', async () => {
    const document = open('Hello عالم كبير جدا\n');
    t.select(document, lines(document, 0, 0));
    assert.match(await vscode.commands.executeCommand('bidiLsp.showDirection'), /ltr \(firstStrong/);
    t.changeConfiguration({ 'bidiLsp.strategy': 'estimate' });
    assert.match(await vscode.commands.executeCommand('bidiLsp.showDirection'), /rtl \(estimate/);
    t.changeConfiguration({ 'bidiLsp.strategy': 'firstStrong' });
  });

  it('sends bidiLsp.sourceLocale as the daemon setting sourceLocale', async () => {
    // Protocol/specification.md, "Settings": sourceLocale, a locale tag, default "en".
    const specification = path.join(__dirname, '..', '..', '..', 'Protocol', 'specification.md');
    const spec = fs.readFileSync(specification, 'utf8');
    const row = spec.split('\n').find((line) => line.startsWith('| `sourceLocale` |'));
    assert.ok(row, 'the settings table has a sourceLocale row');
    assert.match(row, /`"en"`/);
    assert.equal(manifest.contributes.configuration.properties['bidiLsp.sourceLocale'].default, 'en');
    const from = h.sent.length;
    t.changeConfiguration({ 'bidiLsp.sourceLocale': 'fr' });
    const sentSettings = h.sentSince(from, 'workspace/didChangeConfiguration');
    assert.equal(sentSettings.length, 1);
    assert.equal(sentSettings[0].settings.bidi.sourceLocale, 'fr');
    t.changeConfiguration({ 'bidiLsp.sourceLocale': 'en' });
    assert.equal(h.sentSince(from, 'workspace/didChangeConfiguration')[1].settings.bidi.sourceLocale, 'en');
  });

  it('reports errors from commands instead of throwing', async () => {
    vscode.window.activeTextEditor = undefined;
    assert.equal(await vscode.commands.executeCommand('bidiLsp.makeRtl'), undefined);
    assert.match(t.messages.error.at(-1), /no active editor/);
  });

  it('restarts the daemon and reopens the documents', async () => {
    const document = open('שלום\n');
    const before = ext.client;
    await vscode.commands.executeCommand('bidiLsp.restart');
    assert.notEqual(ext.client, before);
    assert.equal(before.running, false);
    await assertInSync(document);
  });
});
