'use strict';
// bidi-lsp for VS Code: the languageId the daemon is told for a document,
// and which documents are localization files (whose paragraphs are values).

/** Localization file extensions and the languageId the daemon knows each by. */
const LOCALIZATION_EXTENSIONS = Object.freeze({
  strings: 'strings', stringsdict: 'stringsdict', xcstrings: 'xcstrings', arb: 'arb',
  po: 'po', pot: 'po', properties: 'properties', xliff: 'xliff', xlf: 'xliff', resx: 'resx',
});
const LOCALIZATION_LANGUAGES = new Set(Object.values(LOCALIZATION_EXTENSIONS));

/** The languageId to send for {document}: its localization format when its
 * file is one (VS Code calls a .resx or .xliff file `xml`), else VS Code's. */
function lspLanguageId(document) {
  const name = document.uri.path.split('/').pop() || '';
  const dot = name.lastIndexOf('.');
  const format = dot > 0 ? LOCALIZATION_EXTENSIONS[name.slice(dot + 1).toLowerCase()] : undefined;
  return format || document.languageId;
}

/** Whether {document} is a localization file, whose paragraphs are values. */
function isLocalization(document) {
  return LOCALIZATION_LANGUAGES.has(lspLanguageId(document));
}

module.exports = { LOCALIZATION_EXTENSIONS, lspLanguageId, isLocalization };
