;;; bidi-lsp-documents-tests.el --- Markdown and subtitle files  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by bidi-lsp-tests.el.

;;; Code:

(require 'bidi-lsp-test-support)

(defmacro bidi-lsp-tests--in-document (name text &rest body)
  "Run BODY in a buffer visiting file NAME (in a temporary directory) holding TEXT."
  (declare (indent 2))
  `(let* ((directory (make-temp-file "bidi-lsp-documents" t))
          (buffer (find-file-noselect (expand-file-name ,name directory))))
     (unwind-protect
         (with-current-buffer buffer
           (insert ,text)
           (bidi-lsp-mode 1)
           ,@body)
       (with-current-buffer buffer (set-buffer-modified-p nil))
       (kill-buffer buffer)
       (delete-directory directory t))))

(ert-deftest bidi-lsp-test-documents-language-ids-and-modes ()
  (pcase-dolist (`(,name ,mode ,language)
                 '(("movie.ar.srt" bidi-lsp-subtitles-mode "srt")
                   ("movie.he.VTT" bidi-lsp-subtitles-mode "vtt")
                   ("README.fa.md" nil "markdown")))
    (bidi-lsp-tests--in-document name ""
      (when mode (should (eq major-mode mode)))
      (should (equal language (bidi-lsp--language-id)))
      (should (bidi-lsp-structured-p))
      (should-not (bidi-lsp-localization-p)))))

(ert-deftest bidi-lsp-test-srecode-templates-keep-their-mode ()
  ;; Emacs's own .srt files are SRecode templates: only subtitles change mode.
  (let* ((directory (make-temp-file "bidi-lsp-documents" t))
         (file (expand-file-name "default.srt" directory)))
    (with-temp-file file (insert ";; Template\nset mode \"default\"\n"))
    (let ((buffer (find-file-noselect file)))
      (unwind-protect
          (with-current-buffer buffer (should (eq major-mode 'srecode-template-mode)))
        (kill-buffer buffer)
        (delete-directory directory t)))))

(ert-deftest bidi-lsp-test-documents-commands-act-on-the-cue-or-block-under-point ()
  ;; As in localization files: point is sent, and the daemon takes the cue
  ;; line or Markdown block it is in.
  (pcase-dolist (`(,name ,text ,word)
                 '(("movie.ar.srt" "1\n00:00:01,000 --> 00:00:02,000\n<i>مرحبا!</i>\n" "مرحبا")
                   ("movie.ar.vtt" "WEBVTT\n\n00:01.000 --> 00:02.000\n<v Dana>مرحبا!\n" "مرحبا")
                   ("README.ar.md" "- [Apple Pay](https://example.com) متاح الآن\n" "متاح")))
    (bidi-lsp-tests--in-document name text
      (goto-char (point-min))
      (search-forward word)
      (pcase-dolist (`(,command ,method) '((bidi-lsp-make-rtl "bidi/insertMarks")
                                           (bidi-lsp-fix-at-point "textDocument/codeAction")))
        (let ((position (bidi-lsp--position (point))))
          (bidi-lsp-tests--recording
            (bidi-lsp-tests--messages (call-interactively command)))
          (should (equal (list :start position :end position)
                         (plist-get (car (bidi-lsp-tests--sent method)) :range))))))))

(provide 'bidi-lsp-documents-tests)
;;; bidi-lsp-documents-tests.el ends here
