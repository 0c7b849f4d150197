;;; bidi-lsp-view-tests.el --- What bidi-lsp.el shows, and what it asks for it  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by bidi-lsp-tests.el.  The visual text shown where Emacs would
;; reorder it again, the direction of mixed notes, the requests for the
;; lines in view only, and the mark commands on the region.

;;; Code:

(require 'bidi-lsp-test-support)

;;;; Visual text that Emacs does not reorder again

(defun bidi-lsp-tests--forced-ltr-p (shown visual)
  "Non-nil when SHOWN is VISUAL in an override Emacs keeps.
LRO first, PDF last, both invisible, and no bidi control between
them that could end the override (an isolate would)."
  (and (string-prefix-p "\u202d" shown)
       (string-suffix-p "\u202c" shown)
       (get-text-property 0 'invisible shown)
       (get-text-property (1- (length shown)) 'invisible shown)
       (equal (substring-no-properties shown 1 -1) visual)
       (not (string-match-p bidi-lsp--controls-regexp visual))))

(ert-deftest bidi-lsp-test-echo-area-visual-text-is-not-reordered-again ()
  ;; An RTL line holding an isolate: the daemon's visual text kept LRI and
  ;; PDI, which ended the LEFT-TO-RIGHT OVERRIDE in the echo area, and
  ;; Emacs reordered the inside back to its logical order.
  (bidi-lsp-tests--with-buffer (concat "שלום " bidi-lsp-tests--lri "abc" bidi-lsp-tests--pdi " עולם\n")
    (let* ((shown (car (last (bidi-lsp-tests--messages
                               (apply #'bidi-lsp-show-visual-order (bidi-lsp-tests--line-bounds 1)))))))
      (should (bidi-lsp-tests--forced-ltr-p shown "םלוע abc םולש")))))

(ert-deftest bidi-lsp-test-combining-marks-follow-their-letter ()
  ;; In visual order a combining mark must come after its base letter
  ;; (UAX #9 L3), or Emacs draws it on the letter before.
  (unless (bidi-lsp-tests--visual-options-implemented-p)
    (ert-skip "the daemon ignores combiningMarks: afterBase (marks before their base)"))
  (bidi-lsp-tests--with-buffer "שָׁלוֹם\n"
    (let ((shown (car (last (bidi-lsp-tests--messages
                              (apply #'bidi-lsp-show-visual-order (bidi-lsp-tests--line-bounds 1)))))))
      (should (bidi-lsp-tests--forced-ltr-p shown "םוֹלשָׁ")))))

(ert-deftest bidi-lsp-test-describe-line-visual-order-is-not-reordered-again ()
  (bidi-lsp-tests--with-buffer (concat "مرحبا " bidi-lsp-tests--lri "x" bidi-lsp-tests--pdi "\n")
    (let* ((text (bidi-lsp-describe-line))
           (line (seq-find (lambda (l) (string-prefix-p "Visual order" l)) (split-string text "\n"))))
      (should line)
      ;; The hover names the controls where they stand (controls: names), so
      ;; the shown text holds no control that could reorder it again.
      (should (bidi-lsp-tests--forced-ltr-p (substring line (+ 2 (string-search ": " line)))
                                            "[PDI]x[LRI] ابحرم")))))

(ert-deftest bidi-lsp-test-eldoc-shows-the-visual-order-of-reordered-lines ()
  (bidi-lsp-tests--with-buffer "plain English line\nשלום (world)\n"
    (should (memq #'bidi-lsp-eldoc-function eldoc-documentation-functions))
    (let (answers)
      ;; A line shown as stored: nothing to say, nothing asked.
      (bidi-lsp-tests--recording
        (should-not (bidi-lsp-eldoc-function (lambda (text &rest _) (push text answers)))))
      (should (null bidi-lsp-tests--sent))
      (forward-line 1)
      (should (bidi-lsp-eldoc-function (lambda (text &rest _) (push text answers))))
      (bidi-lsp-tests--wait-for (lambda () answers))
      (let ((text (car answers)))
        (should (string-prefix-p "bidi rtl: " text))
        (should (bidi-lsp-tests--forced-ltr-p (substring text 10) "(world) םולש"))))))

;;;; Directions

(defconst bidi-lsp-tests--mixed-note
  "Meeting notes 10:30\nשלום לכולם\nمرحبا بكم\nאנחנו נפגשים היום\nAgenda: budget, v2.0\n"
  "A note with more right-to-left lines than left-to-right ones.")

(ert-deftest bidi-lsp-test-each-line-keeps-its-own-direction-by-default ()
  ;; The old default gave the whole buffer the direction of most lines
  ;; (right to left here), which scrambled the English lines.
  (should (eq (default-value 'bidi-lsp-auto-direction) 'line))
  (bidi-lsp-tests--with-buffer bidi-lsp-tests--mixed-note
    (bidi-lsp-tests--show (current-buffer))
    (bidi-lsp-tests--settle)
    (should (null bidi-paragraph-direction))
    (should (equal "^" bidi-paragraph-start-re))
    (should (equal "^" bidi-paragraph-separate-re))
    ;; Emacs then finds each line's direction by UAX #9 P2-P3, as the
    ;; daemon's firstStrong does.
    (should (equal '("ltr" "rtl" "rtl" "rtl" "ltr")
                   (mapcar (lambda (p) (plist-get p :direction))
                           (bidi-lsp-paragraphs (point-min) (1- (point-max))))))))

(ert-deftest bidi-lsp-test-visible-direction-follows-the-lines-in-view ()
  (let ((bidi-lsp-auto-direction 'visible))
    (bidi-lsp-tests--with-buffer (concat (apply #'concat (make-list 300 "English line\n"))
                                         (apply #'concat (make-list 300 "שורה בעברית\n")))
      (bidi-lsp-tests--show (current-buffer))
      (bidi-lsp-tests--settle)
      (should (eq bidi-paragraph-direction 'left-to-right))
      (goto-char (point-max))
      (set-window-start nil (line-beginning-position -20))
      (bidi-lsp-tests--settle)
      (should (eq bidi-paragraph-direction 'right-to-left)))))

;;;; Asking only for what is in view

(defconst bidi-lsp-tests--long-text
  (with-temp-buffer
    (dotimes (i 5000)
      (insert (format "%s %d%s\n" (if (= 0 (% i 2)) "line" "שורה") i
                      (if (= 0 (% i 10)) bidi-lsp-tests--rlm ""))))
    (buffer-string))
  "5000 lines, an RLM on every tenth.")

(ert-deftest bidi-lsp-test-asks-only-for-the-lines-in-view ()
  (bidi-lsp-tests--recording
    (bidi-lsp-tests--with-buffer bidi-lsp-tests--long-text
      (bidi-lsp-tests--show (current-buffer))
      (bidi-lsp-tests--settle)
      (let ((rows (window-body-height)))
        (cl-flet ((check (first-line)
                    (let ((requests (append (bidi-lsp-tests--sent "textDocument/inlayHint")
                                            (bidi-lsp-tests--sent "bidi/naturalDirection"))))
                      (should requests)
                      (dolist (params requests)
                        (let ((lines (bidi-lsp-tests--range-lines params)))
                          (should (>= (car lines) (max 0 (- first-line bidi-lsp-view-margin))))
                          (should (<= (cdr lines) (+ first-line rows bidi-lsp-view-margin))))))
                    (dolist (hint (bidi-lsp-hints))
                      (let ((line (1- (line-number-at-pos (car hint)))))
                        (should (<= (- first-line bidi-lsp-view-margin) line
                                    (+ first-line rows bidi-lsp-view-margin)))))))
          (check 0)
          (should (equal "<RLM>" (cdr (car (bidi-lsp-hints)))))
          ;; Scrolled to line 3000: the hints of the top are gone, those
          ;; from line 3000 less the margin are shown.
          (setq bidi-lsp-tests--sent nil)
          (goto-char (point-min))
          (forward-line 3000)
          (set-window-start nil (point))
          (bidi-lsp-tests--settle)
          (check 3000)
          (should (= (- 3000 bidi-lsp-view-margin)
                     (1- (line-number-at-pos (car (car (bidi-lsp-hints))))))))))
    ;; Nothing whole-document was asked for.
    (dolist (entry bidi-lsp-tests--sent)
      (when (plist-get (cdr entry) :range)
        (let ((lines (bidi-lsp-tests--range-lines (cdr entry))))
          (should (< (- (cdr lines) (car lines)) 1000)))))))

(ert-deftest bidi-lsp-test-a-buffer-out-of-view-asks-nothing ()
  (bidi-lsp-tests--recording
    (bidi-lsp-tests--with-buffer bidi-lsp-tests--long-text
      (bidi-lsp--update (current-buffer))
      (should (= 0 bidi-lsp--in-flight))
      (should (null (bidi-lsp-tests--sent "textDocument/inlayHint")))
      (should (null (bidi-lsp-hints))))))

(ert-deftest bidi-lsp-test-updates-wait-for-a-pause-and-ask-once ()
  (let ((bidi-lsp-idle-delay 0.2))
    (bidi-lsp-tests--recording
      (bidi-lsp-tests--with-buffer bidi-lsp-tests--long-text
        (bidi-lsp-tests--show (current-buffer))
        (bidi-lsp-tests--settle)
        (setq bidi-lsp-tests--sent nil)
        (dotimes (_ 10) (insert "x"))
        ;; Ten changes sent, no request yet: one idle timer waits.
        (should (= 10 (length (bidi-lsp-tests--sent "textDocument/didChange"))))
        (should (null (bidi-lsp-tests--sent "textDocument/inlayHint")))
        (should (timerp bidi-lsp--update-timer))
        (should (= 1 (cl-count bidi-lsp--update-timer timer-idle-list)))
        (timer-event-handler bidi-lsp--update-timer)
        (bidi-lsp-tests--wait-for (lambda () (= 0 bidi-lsp--in-flight)))
        (should (= 1 (length (bidi-lsp-tests--sent "textDocument/inlayHint"))))
        ;; A change while an answer is due is answered by one more update.
        (bidi-lsp--update (current-buffer))
        (insert "y")
        (bidi-lsp--update (current-buffer))
        (bidi-lsp-tests--wait-for (lambda () (and (= 0 bidi-lsp--in-flight)
                                                  (null bidi-lsp--update-again))))
        (should (equal (list bidi-lsp--version (bidi-lsp--window-spans)) bidi-lsp--updated))))))

;;;; Mark commands

(defmacro bidi-lsp-tests--with-region (beg end &rest body)
  "Run BODY with the region from BEG to END active."
  (declare (indent 2))
  `(progn
     (transient-mark-mode 1)
     (goto-char ,beg)
     (push-mark ,end t t)
     (unwind-protect (progn ,@body) (deactivate-mark))))

(ert-deftest bidi-lsp-test-mark-commands-act-on-the-region-only ()
  ;; The commands used to widen a region to its whole lines.
  (bidi-lsp-tests--with-buffer "%@ مدفوعات %@ بدون %d\n"
    (let ((beg (save-excursion (goto-char (point-min)) (search-forward "مدفوعات")))
          (end (save-excursion (goto-char (point-min)) (search-forward "بدون"))))
      (bidi-lsp-tests--with-region beg end
        (should (= 2 (call-interactively #'bidi-lsp-isolate-placeholders))))
      (should (equal (concat "%@ مدفوعات " bidi-lsp-tests--fsi "%@" bidi-lsp-tests--pdi " بدون %d")
                     (bidi-lsp-tests--line 1)))
      ;; Without a region: the current line.
      (goto-char (point-min))
      (should (= 4 (call-interactively #'bidi-lsp-isolate-placeholders)))
      (bidi-lsp-tests--should-be-in-sync))))

(ert-deftest bidi-lsp-test-mark-commands-say-what-changed-or-that-nothing-did ()
  (bidi-lsp-tests--with-buffer "Hello عالم\n"
    (should (equal '("bidi-lsp: direction rtl: 1 edit")
                   (bidi-lsp-tests--messages (call-interactively #'bidi-lsp-make-rtl))))
    (should (equal '("bidi-lsp: direction rtl: nothing to change")
                   (bidi-lsp-tests--messages (call-interactively #'bidi-lsp-make-rtl))))
    (should (equal '("bidi-lsp: strip all: nothing to change")
                   (bidi-lsp-tests--messages
                     (bidi-lsp-insert-marks "strip" (point-max) (point-max) :only "all"))))))

(provide 'bidi-lsp-view-tests)
;;; bidi-lsp-view-tests.el ends here
