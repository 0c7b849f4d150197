;;; release.el --- Lay out bidi-lsp's Emacs package  -*- lexical-binding: t; -*-

;;; Commentary:

;; Used by scripts/release-artifacts.py, in batch:
;;
;;   emacs -Q --batch -l packaging/emacs/release.el \
;;     -f bidi-lsp-release-describe DIR [autoloads]
;;
;; DIR holds the package's .el files.  Writes DIR/bidi-lsp-pkg.el from the
;; header of DIR/bidi-lsp.el (name, version, summary, requirements, URL,
;; keywords: package.el's own reading of it), and with `autoloads' also
;; DIR/bidi-lsp-autoloads.el (the Debian package installs the package
;; where package.el activates it at startup, without installing it, so its
;; autoloads are made here; `package-install-file' makes its own).

;;; Code:

(require 'package)

(defun bidi-lsp-release-describe ()
  "Write the package description (and autoloads) of the directory argument."
  (let* ((dir (file-name-as-directory (expand-file-name (pop command-line-args-left))))
         (autoloads (equal (pop command-line-args-left) "autoloads"))
         (desc (with-temp-buffer
                 (insert-file-contents (expand-file-name "bidi-lsp.el" dir))
                 (package-buffer-info))))
    (package-generate-description-file desc (expand-file-name "bidi-lsp-pkg.el" dir))
    (when autoloads
      (let ((backup-inhibited t))
        (package-generate-autoloads "bidi-lsp" dir)))
    (message "%s %s" (package-desc-name desc) (package-version-join (package-desc-version desc)))))

;;; release.el ends here
