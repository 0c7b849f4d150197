;;; bidi-lsp-daemon-tests.el --- The daemon's life: errors, crashes, restarts  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by bidi-lsp-tests.el.  Kills the daemon as a crash would and
;; checks that the mode starts a new one and that what follows answers
;; on the buffer's text.

;;; Code:

(require 'bidi-lsp-test-support)

(ert-deftest bidi-lsp-test-errors-say-bidi-lsp-once ()
  ;; Was "bidi-lsp: bidi-lsp: cannot run ...".
  (let ((bidi-lsp-command '("/nonexistent/bidi-lsp")))
    (bidi-lsp-shutdown)
    (with-temp-buffer
      (rename-buffer "bidi-lsp-no-daemon" t)
      (let ((shown (bidi-lsp-tests--messages (bidi-lsp-mode 1))))
        (should-not bidi-lsp-mode)
        (should (equal 1 (length shown)))
        (should (string-prefix-p "bidi-lsp: Cannot run (\"/nonexistent/bidi-lsp\")" (car shown)))
        (should-not (string-match-p "bidi-lsp: bidi-lsp" (car shown)))))))

(ert-deftest bidi-lsp-test-insertions-at-one-position-keep-their-order ()
  ;; LSP: insertions at one position appear in the order of the edits.
  ;; Two adjacent placeholders get a PDI and an FSI there; applied from the
  ;; last edit with equal positions in array order, they came out crossed.
  (bidi-lsp-tests--with-buffer "%1$@%2$@\n"
    (let ((pdi "\u2069") (fsi "\u2068"))
      (should (equal 2 (bidi-lsp--apply-edits
                        (vector (list :range (list :start '(:line 0 :character 4) :end '(:line 0 :character 4))
                                      :newText pdi)
                                (list :range (list :start '(:line 0 :character 4) :end '(:line 0 :character 4))
                                      :newText fsi)))))
      (should (equal (buffer-substring-no-properties (point-min) (point-max))
                     (concat "%1$@" pdi fsi "%2$@\n"))))))

(ert-deftest bidi-lsp-test-enabling-twice-opens-once ()
  ;; As when two hooks of the buffer (text-mode-hook and the hook of a
  ;; mode derived from it) both turn the mode on.
  (bidi-lsp-tests--recording
    (bidi-lsp-tests--with-buffer "שלום\n"
      (bidi-lsp-mode 1)
      (bidi-lsp-mode 1)
      (should (= 1 (length (bidi-lsp-tests--sent "textDocument/didOpen"))))
      (bidi-lsp-mode -1)
      (should (null bidi-paragraph-start-re))
      (bidi-lsp-tests--should-be-in-sync-after-reopen))))

(defun bidi-lsp-tests--should-be-in-sync-after-reopen ()
  "Turn the mode on again and check the daemon's copy."
  (bidi-lsp-mode 1)
  (bidi-lsp-tests--should-be-in-sync))

(ert-deftest bidi-lsp-test-internal-buffers-are-left-alone ()
  (with-temp-buffer
    (bidi-lsp-mode 1)
    (should-not bidi-lsp-mode)
    (should-not bidi-lsp--uri)))

(defmacro bidi-lsp-tests--with-other-buffer (text &rest body)
  "Run BODY with `other' bound to a second attached buffer holding TEXT."
  (declare (indent 1))
  `(let ((other (generate-new-buffer "bidi-lsp-test-other")))
     (unwind-protect
         (progn
           (with-current-buffer other (insert ,text) (text-mode) (bidi-lsp-mode 1))
           ,@body)
       (kill-buffer other))))

(ert-deftest bidi-lsp-test-a-dead-daemon-is-started-again-with-the-buffers ()
  (let ((bidi-lsp-restart-delay 0.05))
    (bidi-lsp-tests--with-buffer "first line\nשלום\n"
      (bidi-lsp-tests--with-other-buffer "مرحبا\n"
        (let ((old bidi-lsp--connection))
          (bidi-lsp-tests--kill-daemon)
          (should (null bidi-lsp--version))
          ;; Typed while the daemon is dead.
          (goto-char (point-max))
          (insert "עולם\n")
          (with-current-buffer other (goto-char (point-min)) (insert "new "))
          (should (timerp bidi-lsp--restart-timer))
          (bidi-lsp-tests--wait-for #'bidi-lsp-running-p)
          (should-not (eq old bidi-lsp--connection)))
        (should bidi-lsp-mode)
        (bidi-lsp-tests--should-be-in-sync)
        (with-current-buffer other (bidi-lsp-tests--should-be-in-sync))
        ;; Requests answer on the text as it is now.
        (should (equal '("ltr" "rtl" "rtl")
                       (mapcar (lambda (p) (plist-get p :direction))
                               (bidi-lsp-paragraphs (point-min) (1- (point-max))))))
        (insert "more")
        (bidi-lsp-tests--should-be-in-sync)))))

(ert-deftest bidi-lsp-test-a-request-right-after-a-crash-starts-the-daemon ()
  (let ((bidi-lsp-restart-delay 60))
    (bidi-lsp-tests--with-buffer "abc\n"
      (bidi-lsp-tests--with-other-buffer "xyz\n"
        (bidi-lsp-tests--kill-daemon)
        (insert "שלום ")
        ;; Long before the restart is due, a command needs the daemon.
        (should (equal "Line 1: rtl (firstStrong, first strong character at 1:1)"
                       (apply #'bidi-lsp-show-direction (bidi-lsp-tests--line-bounds 1))))
        (should-not bidi-lsp--restart-timer)
        (with-current-buffer other (bidi-lsp-tests--should-be-in-sync))))))

(ert-deftest bidi-lsp-test-restarts-back-off-and-stop ()
  (let ((bidi-lsp-restart-delay 0.02)
        (bidi-lsp-restart-attempts 3)
        delays)
    (bidi-lsp-tests--with-buffer "abc\n"
      (setq bidi-lsp--restarts 0)
      (let ((shown
             (bidi-lsp-tests--messages
               (dotimes (_ 4)
                 (bidi-lsp-tests--kill-daemon)
                 (when bidi-lsp--restart-timer
                   (push (float-time (time-subtract (timer--time bidi-lsp--restart-timer)
                                                    (current-time)))
                         delays)
                   (bidi-lsp-tests--wait-for #'bidi-lsp-running-p))))))
        ;; 0.02, 0.04, 0.08 s, then no more.
        (setq delays (nreverse delays))
        (should (= 3 (length delays)))
        (should (< (nth 0 delays) (nth 1 delays) (nth 2 delays)))
        (should (null bidi-lsp--restart-timer))
        (should (string-match-p "died 3 times in a row" (car (last shown)))))
      (should-not (bidi-lsp-running-p))
      ;; By hand.
      (bidi-lsp-tests--messages (bidi-lsp-restart))
      (should (bidi-lsp-running-p))
      (bidi-lsp-tests--should-be-in-sync))))

(provide 'bidi-lsp-daemon-tests)
;;; bidi-lsp-daemon-tests.el ends here
