'use strict';
// The daemon the extension starts (daemonCommand in extension.js): the
// setting when set, else the binary bundled in the extension's bin/ (what
// the .vsix of scripts/release.sh holds), else `bidi-lsp` on the PATH; and
// the extension activated from a folder laid out as the .vsix installs it,
// with no setting, running its bundled daemon.
// Run: BIDI_LSP=/path/to/bidi-lsp node --test editors/vscode/test/

const { describe, it, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const h = require('../test-support/harness');

const { daemonCommand } = h.extension;

describe('the daemon to start', () => {
  const folders = [];
  const folder = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'bidi-lsp-vsix-'));
    folders.push(made);
    return made;
  };
  after(() => {
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  });

  it('is bidi-lsp on the PATH when nothing is bundled', () => {
    assert.equal(daemonCommand('bidi-lsp', folder()), 'bidi-lsp');
    assert.equal(daemonCommand('', folder()), 'bidi-lsp');
    assert.equal(daemonCommand(undefined, undefined), 'bidi-lsp');
  });

  it('is the setting when it names another program', () => {
    const extensionPath = folder();
    fs.mkdirSync(path.join(extensionPath, 'bin'));
    fs.writeFileSync(path.join(extensionPath, 'bin', 'bidi-lsp'), '');
    assert.equal(daemonCommand('/opt/bidi/bidi-lsp', extensionPath), '/opt/bidi/bidi-lsp');
  });

  it('is the bundled binary, made executable if unpacking lost its mode', () => {
    const extensionPath = folder();
    const bundled = path.join(extensionPath, 'bin', 'bidi-lsp');
    fs.mkdirSync(path.dirname(bundled));
    fs.writeFileSync(bundled, '', { mode: 0o644 });
    assert.equal(daemonCommand('bidi-lsp', extensionPath), bundled);
    fs.accessSync(bundled, fs.constants.X_OK);
  });

  it('runs the bundled daemon when the extension is activated with no setting', async () => {
    const extensionPath = folder();
    const bundled = path.join(extensionPath, 'bin', 'bidi-lsp');
    fs.mkdirSync(path.dirname(bundled));
    fs.copyFileSync(h.DAEMON, bundled);
    fs.chmodSync(bundled, 0o644);
    const context = { subscriptions: [], extensionPath };
    const ext = await h.extension.activate(context);
    try {
      assert.ok(ext.client && ext.client.running, 'the bundled daemon runs');
      assert.equal(ext.client.command, bundled);
    } finally {
      await h.deactivate(context);
    }
  });
});
