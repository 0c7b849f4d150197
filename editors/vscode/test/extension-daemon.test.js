'use strict';
// extension.js against the fake `vscode` and the real daemon: a daemon that
// dies is started again, with a growing delay, and gets the open documents
// again; what follows answers on the documents' text.
// Run: BIDI_LSP=/path/to/bidi-lsp node --test editors/vscode/test/

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const h = require('../test-support/harness');

const { vscode, waitFor } = h;
const { Range } = vscode;
const t = vscode.test;

/** Kills the daemon as a crash would; resolves when the extension noticed. */
async function crash(ext) {
  const client = ext.client;
  assert.ok(client && client.running);
  client.process.kill('SIGKILL');
  await waitFor(() => ext.client !== client, 'the extension to notice the crash');
  return client;
}

describe('a daemon that dies', () => {
  const context = { subscriptions: [] };
  let ext;

  before(async () => {
    ext = await h.activate(context);
    ext.restartDelay = 20;
  });

  after(async () => {
    await h.deactivate(context);
  });

  it('is started again, with the documents as they are now', async () => {
    const document = h.open('first\nשלום\n');
    // A document of another language, opened for a command.
    const other = h.open('fn main() {}\n', 'rust', 'main.rs');
    t.select(other, h.lines(other, 0, 0));
    await vscode.commands.executeCommand('bidiLsp.showDirection');
    const dead = await crash(ext);
    // Typed while the daemon is dead.
    t.edit(document, new Range(2, 0, 2, 0), 'مرحبا\n');
    t.edit(other, new Range(0, 0, 0, 0), '// עברית\n');
    await waitFor(() => ext.client && ext.client.running, 'a new daemon');
    assert.notEqual(ext.client, dead);
    await h.assertInSync(ext, document);
    await h.assertInSync(ext, other);
    t.select(document, h.lines(document, 0, 2));
    assert.equal(await vscode.commands.executeCommand('bidiLsp.showDirection'), [
      'Line 1: ltr (firstStrong, first strong character at 1:1)',
      'Line 2: rtl (firstStrong, first strong character at 2:1)',
      'Line 3: rtl (firstStrong, first strong character at 3:1)',
    ].join('\n'));
    t.closeDocument(document);
    t.closeDocument(other);
  });

  it('is started at once by a request before the restart is due', async () => {
    ext.restartDelay = 60000;
    try {
      const document = h.open('abc\n');
      await crash(ext);
      t.edit(document, new Range(0, 0, 0, 0), 'שלום ');
      assert.ok(ext.restartTimer, 'a restart is due');
      t.select(document, h.lines(document, 0, 0));
      assert.match(await vscode.commands.executeCommand('bidiLsp.showDirection'), /^Line 1: rtl/);
      assert.equal(ext.restartTimer, null, 'the due restart is cancelled');
      await h.assertInSync(ext, document);
      t.closeDocument(document);
    } finally {
      ext.restartDelay = 20;
    }
  });

  it('is started again with a growing delay, then left stopped', async () => {
    const document = h.open('abc\n');
    ext.restarts = 0;
    ext.restartAttempts = 3;
    const delays = [];
    const originalSetTimeout = global.setTimeout;
    global.setTimeout = (callback, delay, ...args) => {
      if (callback.toString().includes('restartTimer = null')) delays.push(delay);
      return originalSetTimeout(callback, delay, ...args);
    };
    try {
      for (let i = 0; i < 3; i++) {
        await crash(ext);
        await waitFor(() => ext.client && ext.client.running, 'a new daemon');
      }
      await crash(ext);
    } finally {
      global.setTimeout = originalSetTimeout;
    }
    assert.deepEqual(delays, [20, 40, 80]);
    assert.equal(ext.restartTimer, null);
    assert.match(t.messages.error.at(-1), /died 3 times in a row/);
    // By hand.
    await vscode.commands.executeCommand('bidiLsp.restart');
    assert.ok(ext.client && ext.client.running);
    await h.assertInSync(ext, document);
    t.closeDocument(document);
  });
});
