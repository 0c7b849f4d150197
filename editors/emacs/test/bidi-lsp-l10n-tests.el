;;; bidi-lsp-l10n-tests.el --- Localization files, and the README's setup  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by bidi-lsp-tests.el.

;;; Code:

(require 'bidi-lsp-test-support)

(defun bidi-lsp-tests--readme-setup ()
  "The Emacs setup snippet of editors/README.md, as a list of forms."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "editors/README.md" bidi-lsp-tests--root))
    (re-search-forward "^## Emacs$")
    (re-search-forward "^```elisp\n")
    (let ((start (point)) forms)
      (re-search-forward "^```$")
      (save-restriction
        (narrow-to-region start (match-beginning 0))
        (goto-char (point-min))
        (condition-case nil
            (while t (push (read (current-buffer)) forms))
          (end-of-file nil)))
      (nreverse forms))))

(defconst bidi-lsp-tests--files
  '(("note.txt" "Hello שלום\n" text-mode "plaintext")
    ("main.c" "int main(void) { return 0; }\n" c-mode "c")
    ("tool.py" "print('שלום')\n" python-mode "python")
    ("README.md" "# שלום\n" markdown-mode "markdown")
    ("ar.lproj/Localizable.strings" "\"greeting\" = \"مرحبا %@\";\n" bidi-lsp-strings-mode "strings")
    ("ar.lproj/Localizable.stringsdict" "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"
     nxml-mode "stringsdict")
    ("Localizable.xcstrings" "{\"sourceLanguage\": \"en\", \"strings\": {}}\n" js-mode "xcstrings")
    ("intl_ar.arb" "{\"@@locale\": \"ar\", \"hello\": \"مرحبا {name}\"}\n" js-mode "arb")
    ("ar.po" "msgid \"Hello\"\nmsgstr \"مرحبا\"\n" bidi-lsp-po-mode "po")
    ("messages_ar.properties" "hello=مرحبا {0}\n" conf-javaprop-mode "properties")
    ("ar.xliff" "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"/>\n" nxml-mode "xliff")
    ("Strings.ar.resx" "<?xml version=\"1.0\"?>\n<root/>\n" nxml-mode "resx")
    ("movie.ar.srt" "1\n00:00:01,000 --> 00:00:02,000\nمرحبا!\n" bidi-lsp-subtitles-mode "srt")
    ("movie.he.vtt" "WEBVTT\n\n00:01.000 --> 00:02.000\nשלום!\n" bidi-lsp-subtitles-mode "vtt"))
  "Files to visit: name, text, major mode, languageId.")

(ert-deftest bidi-lsp-test-readme-setup-covers-text-code-and-localization-files ()
  ;; The README used to hook text-mode only: C, Python and localization
  ;; files got no Trojan Source warning.
  (unless (fboundp 'markdown-mode)
    ;; A stand-in for the markdown-mode package, derived as it is.
    (define-derived-mode markdown-mode text-mode "Markdown"))
  (let* ((directory (make-temp-file "bidi-lsp-readme" t))
         (hooks-before (mapcar (lambda (h) (cons h (and (boundp h) (symbol-value h))))
                               '(text-mode-hook prog-mode-hook conf-mode-hook po-mode-hook)))
         (auto-mode-alist (cons '("\\.md\\'" . markdown-mode) auto-mode-alist))
         (command bidi-lsp-command)
         buffers)
    (unwind-protect
        (progn
          (let ((load-path load-path))
            (dolist (form (bidi-lsp-tests--readme-setup)) (eval form t)))
          (should (equal bidi-lsp-command '("/path/to/bidi-lsp")))
          (setq bidi-lsp-command command)
          (bidi-lsp-tests--recording
            (pcase-dolist (`(,name ,text ,mode ,language) bidi-lsp-tests--files)
              (let ((file (expand-file-name name directory)))
                (make-directory (file-name-directory file) t)
                (with-temp-file file (insert text))
                (let ((buffer (find-file-noselect file)))
                  (push buffer buffers)
                  (with-current-buffer buffer
                    (should (eq major-mode mode))
                    (should bidi-lsp-mode)
                    (should (equal language (bidi-lsp--language-id)))
                    (should (equal (list language)
                                   (cl-loop for params in (bidi-lsp-tests--sent "textDocument/didOpen")
                                            for document = (plist-get params :textDocument)
                                            when (equal (plist-get document :uri) bidi-lsp--uri)
                                            collect (plist-get document :languageId)))))))))
          ;; The C file gets its hazards reported.
          (with-current-buffer (find-buffer-visiting (expand-file-name "main.c" directory))
            (goto-char (point-max))
            (insert "/* " bidi-lsp-tests--rlo " */\n")
            (bidi-lsp-tests--wait-for #'bidi-lsp-diagnostics)))
      (mapc #'kill-buffer buffers)
      (setq bidi-lsp-command command)
      (pcase-dolist (`(,hook . ,value) hooks-before) (set hook value))
      (delete-directory directory t))))

(defmacro bidi-lsp-tests--in-strings-file (text &rest body)
  "Run BODY in a .strings buffer holding TEXT, with `bidi-lsp-mode' on."
  (declare (indent 1))
  `(let ((buffer (generate-new-buffer "Localizable.strings")))
     (unwind-protect
         (with-current-buffer buffer
           (insert ,text)
           (bidi-lsp-strings-mode)
           (bidi-lsp-mode 1)
           (should (equal "strings" (bidi-lsp--language-id)))
           ,@body)
       (kill-buffer buffer))))

(ert-deftest bidi-lsp-test-localization-commands-act-on-the-value-under-point ()
  ;; The commands sent the whole lines; in a localization file they send
  ;; point (or the region), and the daemon takes the value it is in.
  (bidi-lsp-tests--in-strings-file
      "\"a\" = \"x\"; \"payment\" = \"%@ مدفوعات بدون فوائد من %@\";\n"
    (goto-char (point-min))
    (search-forward "مدفوعات")
    (pcase-dolist (`(,command ,method) '((bidi-lsp-isolate-placeholders "bidi/insertMarks")
                                         (bidi-lsp-make-rtl "bidi/insertMarks")
                                         (bidi-lsp-strip "bidi/insertMarks")
                                         (bidi-lsp-fix-at-point "textDocument/codeAction")))
      (let ((position (bidi-lsp--position (point))))
        (bidi-lsp-tests--recording
          (bidi-lsp-tests--messages (call-interactively command)))
        (should (equal (list :start position :end position)
                       (plist-get (car (bidi-lsp-tests--sent method)) :range)))))))

(ert-deftest bidi-lsp-test-localization-region-is-sent-as-it-is ()
  (bidi-lsp-tests--in-strings-file "\"k\" = \"%@ مدفوعات %@\";\n"
    (let ((beg (save-excursion (goto-char (point-min)) (search-forward "= \"")))
          (end (save-excursion (goto-char (point-max)) (search-backward "\""))))
      (transient-mark-mode 1)
      (goto-char beg)
      (push-mark end t t)
      (bidi-lsp-tests--recording
        (bidi-lsp-tests--messages (call-interactively #'bidi-lsp-isolate-placeholders)))
      (deactivate-mark)
      (should (equal (bidi-lsp--range beg end)
                     (plist-get (car (bidi-lsp-tests--sent "bidi/insertMarks")) :range)))
      (should (equal (concat "\"k\" = \"" bidi-lsp-tests--fsi "%@" bidi-lsp-tests--pdi " مدفوعات "
                             bidi-lsp-tests--fsi "%@" bidi-lsp-tests--pdi "\";")
                     (bidi-lsp-tests--line 1))))))

(provide 'bidi-lsp-l10n-tests)
;;; bidi-lsp-l10n-tests.el ends here
