;;; bidi-lsp-documents.el --- Markdown and subtitles for bidi-lsp  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  Markdown and subtitle files (SubRip .srt,
;; WebVTT .vtt; the contract's section 8): the LSP languageId the daemon
;; recognises for each, a plain major mode for subtitle files where no
;; other is installed (the subed package's modes win when it is), and
;; `bidi-lsp-structured-p': in these files, as in localization files, a
;; paragraph is a rendered block or a cue line rather than a source
;; line, so the commands and quick fixes act on the block or cue line
;; under point.
;;
;; Paragraph direction: Emacs has one `bidi-paragraph-direction' per
;; buffer, not one per paragraph.  With it nil (what
;; `bidi-lsp-auto-direction' `line', the default, sets), Emacs gives each
;; line its own direction from the first strong character of its
;; *source*, in which markup counts: `<i>مرحبا!</i>', `{\an8}مرحبا' and
;; `- [Apple Pay](https://…) متاح' display left to right because of the
;; Latin letters of the tag, the override code or the link, and an RLM
;; put after that markup (the daemon's fix, as players and renderers
;; need it) does not change that.  So bidi-lsp cannot set the direction
;; of each rendered block in Emacs; it keeps each line its own paragraph
;; and shows the rendered direction in the `bidi.cueDirection' and
;; `bidi.blockDirection' diagnostics and in eldoc.

;;; Code:

(require 'subr-x)
(require 'bidi-lsp-l10n)

(defconst bidi-lsp-document-extensions
  '(("md" . "markdown") ("markdown" . "markdown") ("srt" . "srt") ("vtt" . "vtt"))
  "File extensions of Markdown and subtitle files and the languageId of each.")

(defconst bidi-lsp-document-modes
  '((markdown-mode . "markdown") (gfm-mode . "markdown")
    (subed-srt-mode . "srt") (subed-vtt-mode . "vtt"))
  "Major modes of Markdown and subtitle files and the languageId of each.")

(defun bidi-lsp-document-language-id ()
  "The languageId of the buffer's Markdown or subtitle format, or nil.
From the major mode, else from the file's extension."
  (or (cdr (assq major-mode bidi-lsp-document-modes))
      (when-let ((name buffer-file-name)
                 (extension (file-name-extension name)))
        (cdr (assoc (downcase extension) bidi-lsp-document-extensions)))))

(defun bidi-lsp-structured-p ()
  "Return non-nil when the buffer is a structured document to the daemon.
A localization, Markdown or subtitle file: its paragraphs are values,
rendered blocks or cue lines, and the commands act on the one under
point, not on its line."
  (or (bidi-lsp-localization-p) (and (bidi-lsp-document-language-id) t)))

;;;###autoload
(define-derived-mode bidi-lsp-subtitles-mode text-mode "Subtitles"
  "Major mode for SubRip (.srt) and WebVTT (.vtt) subtitle files.
Plain text; the subed package's modes, when installed, are chosen
before it.")

;;;###autoload
(defun bidi-lsp-srt-mode ()
  "Choose the major mode of a .srt file by its contents.
Emacs gives .srt to `srecode-template-mode' (its own SRecode
templates); an empty file, or one whose first line is a cue number
or a timing line, is SubRip subtitles: `subed-srt-mode' when installed, else
`bidi-lsp-subtitles-mode'."
  (if (save-excursion
        (goto-char (point-min))
        (skip-chars-forward "\ufeff \t\r\n")
        (or (eobp) (looking-at "[0-9]+[ \t\r]*\\(?:\n\\|$\\)\\|[0-9:,.]+ *-->")))
      (if (fboundp 'subed-srt-mode) (subed-srt-mode) (bidi-lsp-subtitles-mode))
    (srecode-template-mode)))

;; Before Emacs's own .srt entry (SRecode templates), which
;; `bidi-lsp-srt-mode' keeps for files that are not subtitles; .vtt
;; appended, so that a mode already chosen for it (subed's) keeps it.
;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\.srt\\'" . bidi-lsp-srt-mode))
  (add-to-list 'auto-mode-alist '("\\.vtt\\'" . bidi-lsp-subtitles-mode) t))

(provide 'bidi-lsp-documents)
;;; bidi-lsp-documents.el ends here
