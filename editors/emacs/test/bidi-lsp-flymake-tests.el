;;; bidi-lsp-flymake-tests.el --- Hazards in Flymake, and their quick fixes  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by bidi-lsp-tests.el.

;;; Code:

(require 'bidi-lsp-test-support)

(defun bidi-lsp-tests--warnings ()
  "The text of the *Warnings* buffer, or the empty string."
  (if (get-buffer "*Warnings*")
      (with-current-buffer "*Warnings*" (buffer-substring-no-properties (point-min) (point-max)))
    ""))

(ert-deftest bidi-lsp-test-flymake-runs-bidi-lsp-alone-in-c-mode ()
  ;; Turning Flymake on for the hazards used to run c-mode's own
  ;; checkers too, which complain without a Makefile ("Disabling
  ;; backend flymake-cc", "Unexpected report from disabled backend").
  (let* ((directory (make-temp-file "bidi-lsp-c" t))
         (file (expand-file-name "main.c" directory)))
    (unwind-protect
        (progn
          (with-temp-file file (insert bidi-lsp-tests--trojan))
          (let* ((warnings (bidi-lsp-tests--warnings))
                 (buffer (find-file-noselect file))
                 (shown
                  (bidi-lsp-tests--messages
                    (with-current-buffer buffer
                      (c-mode)
                      (should (memq 'flymake-cc flymake-diagnostic-functions))
                      (bidi-lsp-mode 1)
                      (should flymake-mode)
                      (flymake-start)
                      (should (equal '(bidi-lsp-flymake-backend) (flymake-running-backends)))
                      (bidi-lsp-tests--wait-for #'flymake-diagnostics)
                      (dotimes (_ 20) (accept-process-output nil 0.01))
                      (bidi-lsp-mode -1)
                      ;; Flymake as it was: off, with c-mode's backends.
                      (should-not flymake-mode)
                      (should (memq 'flymake-cc flymake-diagnostic-functions))))))
            (kill-buffer buffer)
            (should (equal warnings (bidi-lsp-tests--warnings)))
            (should-not (seq-find (lambda (m) (string-match-p "backend\\|[Ff]lymake" m)) shown))))
      (delete-directory directory t))))

(ert-deftest bidi-lsp-test-flymake-joins-a-running-flymake ()
  (bidi-lsp-tests--with-buffer (concat "x " bidi-lsp-tests--rlo "y\n")
    (bidi-lsp-mode -1)
    (setq-local flymake-diagnostic-functions (list #'ignore))
    (progn
      (flymake-mode 1)
      (bidi-lsp-mode 1)
      (should (memq #'bidi-lsp-flymake-backend flymake-diagnostic-functions))
      (should (memq #'ignore flymake-diagnostic-functions))
      (bidi-lsp-mode -1)
      (should flymake-mode)
      (should-not (memq #'bidi-lsp-flymake-backend flymake-diagnostic-functions))
      (flymake-mode -1))))

(ert-deftest bidi-lsp-test-flymake-list-is-in-line-order ()
  ;; Emacs 28's list follows the overlays, which came out last line first.
  (bidi-lsp-tests--with-buffer
      (mapconcat (lambda (i) (format "line %d %sx\n" i bidi-lsp-tests--rlo)) (number-sequence 1 6) "")
    (bidi-lsp-tests--wait-for #'bidi-lsp-diagnostics)
    (flymake-start)
    (bidi-lsp-tests--wait-for #'flymake-diagnostics)
    (goto-char (point-max))
    (flymake-show-buffer-diagnostics)
    (let* ((list-buffer (flymake--diagnostics-buffer-name))
           (lines (with-current-buffer list-buffer
                    (mapcar (lambda (id) (plist-get id :line))
                            (save-excursion
                              (goto-char (point-min))
                              (cl-loop until (eobp)
                                       when (tabulated-list-get-id) collect it
                                       do (forward-line 1)))))))
      (kill-buffer list-buffer)
      (should (= 12 (length lines)))   ; override and unpaired on each
      (should (equal lines (sort (copy-sequence lines) #'<))))))

(ert-deftest bidi-lsp-test-quick-fixes-for-every-hazard-on-the-line-once ()
  ;; Line 3 holds an RLO (two diagnostics: inComment and override) and an
  ;; unclosed LRI.  Every fix is offered once, wherever point is on the line.
  (bidi-lsp-tests--with-buffer bidi-lsp-tests--trojan
    c-mode
    (bidi-lsp-tests--wait-for #'bidi-lsp-diagnostics)
    (goto-char (point-min))
    (forward-line 2)
    (let (offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (mapcar #'car collection))
                   (car (last offered)))))
        (let ((original (buffer-string)))
          (should (bidi-lsp-fix-at-point t))
          (should (equal offered (delete-dups (copy-sequence offered))))
          (should (cl-find-if (lambda (title) (string-prefix-p "Remove the RLO" title)) offered))
          (should (cl-find-if (lambda (title) (string-prefix-p "Remove the LRI" title)) offered))
          (should (= 1 (cl-count-if (lambda (title) (string-prefix-p "Remove the RLO" title)) offered)))
          (erase-buffer)
          (insert original)
          (goto-char (point-min))
          (forward-line 2))))
    ;; Without a prefix: the preferred fix of the hazard nearest point.
    (goto-char (line-end-position))
    (should (string-prefix-p "Remove the LRI" (bidi-lsp-fix-at-point)))
    (should (string-search bidi-lsp-tests--rlo (buffer-string)))
    (goto-char (line-beginning-position))
    (should (string-prefix-p "Remove the RLO" (bidi-lsp-fix-at-point)))
    (bidi-lsp-tests--should-be-in-sync)))

(provide 'bidi-lsp-flymake-tests)
;;; bidi-lsp-flymake-tests.el ends here
