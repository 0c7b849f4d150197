'use strict';
// Activates the extension unpacked from the .vsix (as VS Code installs it)
// against the fake `vscode` module of editors/vscode/test-support, with no
// bidiLsp.path setting, and prints what it started as JSON.
// Usage: node vsix-activate.js UNPACKED-EXTENSION-FOLDER
const path = require('node:path');
const Module = require('node:module');
const { createVscode } = require('../../editors/vscode/test-support/fake-vscode');

const extensionPath = path.resolve(process.argv[2]);
const manifest = require(path.join(extensionPath, 'package.json'));
const vscode = createVscode(manifest);
const originalLoad = Module._load;
Module._load = function load(request, ...rest) {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
};
const extension = require(path.join(extensionPath, 'extension.js'));

(async () => {
  const context = { subscriptions: [], extensionPath };
  const ext = await extension.activate(context);
  const started = { command: ext.client && ext.client.command, running: Boolean(ext.client && ext.client.running) };
  await extension.deactivate();
  for (const disposable of context.subscriptions) disposable.dispose();
  process.stdout.write(JSON.stringify(started) + '\n');
  process.exit(0);
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
