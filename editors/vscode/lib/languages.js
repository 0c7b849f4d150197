'use strict';
// bidi-lsp for VS Code: the languageId the daemon is told for a document,
// and which documents are structured: localization files (whose paragraphs
// are values), Markdown (rendered blocks) and subtitles (cue lines).

/** Localization file extensions and the languageId the daemon knows each by. */
const LOCALIZATION_EXTENSIONS = Object.freeze({
  strings: 'strings', stringsdict: 'stringsdict', xcstrings: 'xcstrings', arb: 'arb',
  po: 'po', pot: 'po', properties: 'properties', xliff: 'xliff', xlf: 'xliff', resx: 'resx',
});
const LOCALIZATION_LANGUAGES = new Set(Object.values(LOCALIZATION_EXTENSIONS));

/** Subtitle file extensions and their languageIds (this extension contributes
 * both languages; another extension may call them `subrip` or `webvtt`). */
const SUBTITLE_EXTENSIONS = Object.freeze({ srt: 'srt', vtt: 'vtt' });

/** The other structured documents' languageIds (contract §8). */
const DOCUMENT_LANGUAGES = new Set(['markdown', 'srt', 'vtt']);

/** The languageId to send for {document}: its localization format when its
 * file is one (VS Code calls a .resx or .xliff file `xml`), else VS Code's. */
function lspLanguageId(document) {
  const name = document.uri.path.split('/').pop() || '';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const format = LOCALIZATION_EXTENSIONS[extension] || SUBTITLE_EXTENSIONS[extension];
  return format || document.languageId;
}

/** Whether {document} is a localization file, whose paragraphs are values. */
function isLocalization(document) {
  return LOCALIZATION_LANGUAGES.has(lspLanguageId(document));
}

/** Whether the daemon reads {document} as a structured document, whose
 * paragraphs are not its lines: commands and fixes send the cursor there
 * and the daemon takes the value, block or cue line under it. */
function isStructured(document) {
  return isLocalization(document) || DOCUMENT_LANGUAGES.has(lspLanguageId(document));
}

module.exports = { LOCALIZATION_EXTENSIONS, SUBTITLE_EXTENSIONS, lspLanguageId, isLocalization, isStructured };
