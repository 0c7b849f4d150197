;;; emacs-package-test.el --- Install bidi-lsp's Emacs package as a user would  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by test_emacs.py:
;;   emacs -Q --batch -l emacs-package-test.el PACKAGE.tar USER-DIR BIDI-LSP FILE
;; Installs PACKAGE.tar with `package-install-file' into USER-DIR (byte
;; compilation warnings are errors), then turns `bidi-lsp-mode' on in FILE
;; with the daemon BIDI-LSP, and prints one line per fact checked.

;;; Code:

(require 'package)

(let* ((tar (expand-file-name (pop command-line-args-left)))
       (user-dir (expand-file-name (pop command-line-args-left)))
       (daemon (expand-file-name (pop command-line-args-left)))
       (file (expand-file-name (pop command-line-args-left))))
  (setq package-user-dir user-dir
        package-archives nil
        byte-compile-error-on-warn t)
  (package-initialize)
  (package-install-file tar)
  (princ (format "installed: %s\n" (and (package-installed-p 'bidi-lsp) t)))
  (let ((desc (cadr (assq 'bidi-lsp package-alist))))
    (princ (format "version: %s\n" (package-version-join (package-desc-version desc))))
    (princ (format "compiled: %s\n"
                   (length (directory-files (package-desc-dir desc) nil "\\.elc\\'")))))
  (princ (format "compile log: %S\n"
                 (if (get-buffer byte-compile-log-buffer)
                     (with-current-buffer byte-compile-log-buffer
                       (string-trim (buffer-string)))
                   "")))
  ;; Only the autoloads so far: the mode is loaded when first used.
  (princ (format "autoloaded: %s\n" (and (fboundp 'bidi-lsp-mode) (autoloadp (symbol-function 'bidi-lsp-mode)))))
  (setq bidi-lsp-command (list daemon))
  (find-file file)
  (bidi-lsp-mode 1)
  (princ (format "mode: %s\n" bidi-lsp-mode))
  (princ (format "daemon: %s\n" (and (bidi-lsp-running-p) t)))
  (let ((info (bidi-lsp-request :bidi/documentInfo
                                (list :textDocument (list :uri bidi-lsp--uri) :includeText t))))
    (princ (format "in sync: %s\n" (equal (plist-get info :text) (buffer-string)))))
  (bidi-lsp-mode -1))

;;; emacs-package-test.el ends here
