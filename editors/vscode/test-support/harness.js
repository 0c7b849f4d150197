'use strict';
// Shared set-up of the extension tests: a fake `vscode` module in place of
// the real one, extension.js loaded against it, the real daemon, and
// helpers. Each test file runs in its own process, so each gets a fresh one.

const assert = require('node:assert/strict');
const path = require('node:path');
const Module = require('node:module');
const { createVscode } = require('./fake-vscode');
const { LanguageClient } = require('../lib/client');

const DAEMON = process.env.BIDI_LSP || path.resolve(__dirname, '../../../.build/release/bidi-lsp');
const manifest = require('../package.json');

const vscode = createVscode(manifest);
const originalLoad = Module._load;
Module._load = function load(request, ...rest) {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
};
const extension = require('../extension');

const chars = Object.freeze({
  RLM: '\u200f', LRM: '\u200e', RLO: '\u202e', LRI: '\u2066', FSI: '\u2068', PDI: '\u2069',
  LRO: '\u202d', PDF: '\u202c',
});

/** A Trojan Source sample in C: line 2 holds an RLO (in a comment, so two
 * diagnostics) and an unclosed LRI. */
const TROJAN = `int main(void) {\n  int isAdmin = 0;\n  /*${chars.RLO} } ${chars.LRI}if (isAdmin)${chars.PDI} ${chars.LRI} begin admins only */\n  return 0;\n}\n`;

/** Waits until predicate() is true (the daemon's notifications arrive meanwhile). */
async function waitFor(predicate, what) {
  const deadline = Date.now() + 10000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every request and notification any client sends, while recording. */
const sent = [];
const originalSend = LanguageClient.prototype.send;
LanguageClient.prototype.send = function send(message) {
  if (message.method) sent.push(message);
  return originalSend.call(this, message);
};

/** The params of the messages of {method} sent since {from}. */
const sentSince = (from, method) => sent.slice(from).filter((m) => m.method === method).map((m) => m.params);

/** Activates the extension against the daemon; returns the test state. */
async function activate(context) {
  vscode.test.settings['bidiLsp.path'] = DAEMON;
  const ext = await extension.activate(context);
  assert.ok(ext.client && ext.client.running, 'the daemon runs after activation');
  return ext;
}

/** Deactivates the extension and undoes the set-up. */
async function deactivate(context) {
  await extension.deactivate();
  for (const disposable of context.subscriptions) disposable.dispose();
  Module._load = originalLoad;
  LanguageClient.prototype.send = originalSend;
}

let counter = 0;

/** Opens a new document of {languageId} named like {name} (a number is added). */
function open(text, languageId = 'plaintext', name = 'test.txt') {
  counter += 1;
  const dot = name.lastIndexOf('.');
  const file = dot > 0 ? `${name.slice(0, dot)}-${counter}${name.slice(dot)}` : `${name}-${counter}`;
  return vscode.test.openDocument(`/work/${file}`, languageId, text);
}

async function daemonText(ext, document) {
  const info = await ext.request('bidi/documentInfo', { textDocument: { uri: document.uri.toString() }, includeText: true });
  assert.equal(info.version, document.version, 'the daemon has the same version');
  return info.text;
}

async function assertInSync(ext, document) {
  assert.equal(await daemonText(ext, document), document.getText());
}

/** A selection of the whole lines {first} to {last}. */
const lines = (document, first, last) => new vscode.Selection(new vscode.Position(first, 0),
  new vscode.Position(last, document.lineAt(last).text.length));

module.exports = {
  vscode, extension, manifest, DAEMON, chars, TROJAN, waitFor, sent, sentSince, activate, deactivate, open,
  daemonText, assertInSync, lines,
};
