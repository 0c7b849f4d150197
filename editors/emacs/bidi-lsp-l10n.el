;;; bidi-lsp-l10n.el --- Localization files for bidi-lsp  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  Localization files (Apple .strings,
;; .stringsdict and .xcstrings, gettext .po, XLIFF, Flutter .arb, Java
;; .properties, .NET .resx): the major modes Emacs lacks, the
;; `auto-mode-alist' entries that use them, and the LSP languageId the
;; daemon recognises for each.  In these files a paragraph is a
;; translated value rather than a line, so the commands act on the value
;; under point (see `bidi-lsp-localization-p').

;;; Code:

(require 'subr-x)

(defconst bidi-lsp-l10n-extensions
  '(("strings" . "strings") ("stringsdict" . "stringsdict") ("xcstrings" . "xcstrings")
    ("arb" . "arb") ("po" . "po") ("pot" . "po") ("properties" . "properties")
    ("xliff" . "xliff") ("xlf" . "xliff") ("resx" . "resx"))
  "File extensions of localization files and the languageId of each.")

(defconst bidi-lsp-l10n-modes
  '((bidi-lsp-strings-mode . "strings") (bidi-lsp-po-mode . "po") (po-mode . "po")
    (conf-javaprop-mode . "properties"))
  "Major modes of localization files that have no telling extension.")

(defun bidi-lsp-l10n-language-id ()
  "The languageId of the buffer's localization format, or nil.
From the file's extension, else from the major mode; nil when the
buffer does not hold a localization file."
  (or (when-let ((name buffer-file-name)
                 (extension (file-name-extension name)))
        (cdr (assoc (downcase extension) bidi-lsp-l10n-extensions)))
      (cdr (assq major-mode bidi-lsp-l10n-modes))))

(defun bidi-lsp-localization-p ()
  "Return non-nil when the current buffer is a localization file.
The commands then act on the value under point, not on its line."
  (and (bidi-lsp-l10n-language-id) t))

;;;; Major modes

(defvar bidi-lsp-strings-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?= "." table)
    (modify-syntax-entry ?\; "." table)
    table)
  "Syntax of Apple .strings files: C comments and double-quoted strings.")

;;;###autoload
(define-derived-mode bidi-lsp-strings-mode prog-mode "Strings"
  "Major mode for Apple .strings files: \"key\" = \"value\"; lines.
Comments are /* ... */ and // ...; keys and values are strings."
  :syntax-table bidi-lsp-strings-mode-syntax-table
  (setq-local comment-start "/* ")
  (setq-local comment-end " */")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)\\s-*")
  (setq-local font-lock-defaults '(nil)))

(defvar bidi-lsp-po-mode-syntax-table
  (let ((table (make-syntax-table text-mode-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    table)
  "Syntax of gettext .po files: # comments and double-quoted strings.")

;;;###autoload
(define-derived-mode bidi-lsp-po-mode text-mode "PO"
  "Major mode for gettext .po files, when `po-mode' is not installed.
It only knows comments and strings; install gettext's `po-mode'
\(Debian package elpa-po-mode or gettext-el) for a real editor."
  :syntax-table bidi-lsp-po-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local font-lock-defaults '(nil)))

;; Appended, so that a mode already chosen for these files (po-mode,
;; nxml-mode...) keeps them.
;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\.strings\\'" . bidi-lsp-strings-mode) t)
  (add-to-list 'auto-mode-alist '("\\.\\(?:stringsdict\\|xliff\\|xlf\\|resx\\)\\'" . nxml-mode) t)
  (add-to-list 'auto-mode-alist
               (cons "\\.\\(?:xcstrings\\|arb\\)\\'" (if (fboundp 'js-json-mode) 'js-json-mode 'js-mode))
               t)
  (add-to-list 'auto-mode-alist '("\\.pot?\\'" . bidi-lsp-po-mode) t))

(provide 'bidi-lsp-l10n)
;;; bidi-lsp-l10n.el ends here
