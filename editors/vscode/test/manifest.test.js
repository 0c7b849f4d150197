'use strict';
// package.json against the published specification: the `bidiLsp.diagnostics`
// setting offers exactly the rule codes that Protocol/specification.md's
// settings table lists for `diagnostics` (a new rule there fails this test
// until the manifest names it too).
// Run: node --test editors/vscode/test/

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..', '..');
const manifest = require('../package.json');

function specifiedRules() {
  const spec = fs.readFileSync(path.join(root, 'Protocol', 'specification.md'), 'utf8');
  const row = spec.split('\n').find((line) => line.startsWith('| `diagnostics` |'));
  assert.ok(row, 'the settings table has a diagnostics row');
  const keys = row.split('|')[2];
  return [...keys.matchAll(/`([A-Za-z0-9]+)`/g)].map((m) => m[1]).filter((k) => !/^(true|false|error|warning|information|hint)$/.test(k));
}

function contributedSetting(name) {
  const configuration = [].concat(manifest.contributes.configuration);
  for (const section of configuration) {
    if (section.properties && section.properties[name]) return section.properties[name];
  }
  return undefined;
}

describe('package.json and the specification', () => {
  it('offers every rule code of the diagnostics setting, and no other', () => {
    const rules = specifiedRules();
    assert.ok(rules.includes('unpaired') && rules.includes('subtitleSyntax'), `parsed ${rules}`);
    const setting = contributedSetting('bidiLsp.diagnostics');
    assert.ok(setting, 'bidiLsp.diagnostics is contributed');
    assert.deepEqual(Object.keys(setting.properties).sort(), [...rules].sort());
    for (const rule of rules) {
      assert.ok(setting.description.includes(rule), `the description names ${rule}`);
    }
  });
});
