;;; bidi-lsp-tests.el --- Tests of bidi-lsp.el against the real daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run from the repository root:
;;
;;   BIDI_LSP=.build/release/bidi-lsp emacs -Q --batch -L editors/emacs \
;;     -l ert -l editors/emacs/test/bidi-lsp-tests.el -f ert-run-tests-batch-and-exit
;;
;; Without BIDI_LSP, the daemon is .build/release/bidi-lsp of this checkout.

;;; Code:

(require 'ert)
(add-to-list 'load-path (file-name-directory (or load-file-name buffer-file-name)))
(require 'bidi-lsp-test-support)

(ert-deftest bidi-lsp-test-daemon-negotiates-utf-32 ()
  (bidi-lsp-tests--with-buffer "hello"
    (should (bidi-lsp-running-p))
    (should (equal "utf-32" (plist-get (bidi-lsp--capabilities bidi-lsp--connection)
                                       :positionEncoding)))))

(ert-deftest bidi-lsp-test-document-sync ()
  (bidi-lsp-tests--with-buffer "first\nשלום world\nthird\n"
    (bidi-lsp-tests--should-be-in-sync)
    (goto-char (point-max))
    (insert "مرحبا بكم\n")
    (goto-char (point-min))
    (insert "new ")
    (bidi-lsp-tests--should-be-in-sync)
    (while (re-search-forward "world" nil t) (replace-match "עולם"))
    (goto-char (point-min))
    (forward-line 1)
    (kill-line 2)
    (bidi-lsp-tests--should-be-in-sync)
    (transpose-regions 1 4 6 9)
    (upcase-region (point-min) (point-max))
    (bidi-lsp-tests--should-be-in-sync)
    (erase-buffer)
    (bidi-lsp-tests--should-be-in-sync)
    (insert "a\r\nb\n\n")
    (bidi-lsp-tests--should-be-in-sync)
    ;; A carriage return ends a line for the daemon, not for Emacs.
    (insert "c\rd\ne\n")
    (goto-char (point-max))
    (insert "f")
    (goto-char 3)
    (insert "g")
    (bidi-lsp-tests--should-be-in-sync)
    ;; Narrowing does not change what the daemon sees.
    (narrow-to-region 1 2)
    (insert "x")
    (bidi-lsp-tests--should-be-in-sync)))

(ert-deftest bidi-lsp-test-natural-direction ()
  (bidi-lsp-tests--with-buffer "مرحبا بكم في bidi-lsp\nHello عالم\n12345"
    (let ((paragraphs (bidi-lsp-paragraphs (point-min) (point-max))))
      (should (equal '("rtl" "ltr" "ltr")
                     (mapcar (lambda (p) (plist-get p :direction)) paragraphs)))
      (should (equal '("firstStrong" "firstStrong" "fallback")
                     (mapcar (lambda (p) (plist-get p :basis)) paragraphs))))
    (should (equal "Line 1: rtl (firstStrong, first strong character at 1:1)"
                   (apply #'bidi-lsp-show-direction (bidi-lsp-tests--line-bounds 1))))
    (should (equal "Line 3: ltr (fallback)"
                   (apply #'bidi-lsp-show-direction (bidi-lsp-tests--line-bounds 3))))))

(ert-deftest bidi-lsp-test-paragraph-direction-follows-the-text ()
  (bidi-lsp-tests--with-buffer "שלום עולם\nمرحبا\nhello\n"
    (let ((bidi-lsp-auto-direction 'document))
      (bidi-lsp-update-direction)
      (should (eq bidi-paragraph-direction 'right-to-left))
      (erase-buffer)
      (insert "one\ntwo\nשלום\n")
      (bidi-lsp-update-direction)
      (should (eq bidi-paragraph-direction 'left-to-right)))
    (let ((bidi-lsp-auto-direction 'first))
      (goto-char (point-min))
      (insert "123\nעברית\n")
      (bidi-lsp-update-direction)
      (should (eq bidi-paragraph-direction 'right-to-left)))
    (let ((bidi-lsp-auto-direction 'line))
      (bidi-lsp-update-direction)
      (should (null bidi-paragraph-direction))
      (should (equal bidi-paragraph-start-re "^")))
    (bidi-lsp-mode -1)
    (should (equal bidi-paragraph-start-re nil))))

(ert-deftest bidi-lsp-test-visual-order ()
  (bidi-lsp-tests--with-buffer "abc אבג def\nשלום (world)\n"
    (should (equal '("abc גבא def" "(world) םולש")
                   (bidi-lsp-visual-lines (point-min) (point-max))))
    (bidi-lsp-show-visual-order (point-min) (point-max))
    (with-current-buffer bidi-lsp--visual-buffer
      (should (equal "abc גבא def\n(world) םולש\n" (buffer-string)))
      (should (null bidi-display-reordering)))
    ;; One line goes to the echo area, in a LEFT-TO-RIGHT OVERRIDE.
    (let (shown)
      (cl-letf (((symbol-function 'message)
                 (lambda (format &rest args) (setq shown (apply #'format format args)))))
        (should (equal '("(world) םולש")
                       (apply #'bidi-lsp-show-visual-order (bidi-lsp-tests--line-bounds 2)))))
      (should (equal "\u202d(world) םולש\u202c" shown)))))

;; "السلام عليكم" joined and in visual order, as fribidi --nopad --nobreak
;; --clean prints it: meem final, kaf, yeh and lam medial, ain initial;
;; meem isolated, lam-alef final, seen medial, lam initial, alef isolated.
(ert-deftest bidi-lsp-test-visual-order-joins-arabic-letters ()
  (bidi-lsp-tests--with-buffer "السلام عليكم\n"
    (should (eq t (plist-get (bidi-lsp--visual-options) :shape)))
    (should (equal (list (string #xFEE2 #xFEDC #xFEF4 #xFEE0 #xFECB ?\s #xFEE1 #xFEFC #xFEB4 #xFEDF #xFE8D))
                   (bidi-lsp-visual-lines (point-min) (point-max))))
    (let ((bidi-lsp-visual-shape nil))
      (should (eq :json-false (plist-get (bidi-lsp--visual-options) :shape)))
      (should (equal '("مكيلع مالسلا") (bidi-lsp-visual-lines (point-min) (point-max)))))))

(ert-deftest bidi-lsp-test-direction-marks-are-idempotent ()
  (bidi-lsp-tests--with-buffer "Hello عالم\nمرحبا\n"
    (should (= 1 (bidi-lsp-make-rtl (point-min) (point-max))))
    (should (equal (concat bidi-lsp-tests--rlm "Hello عالم\nمرحبا\n") (buffer-string)))
    (bidi-lsp-tests--should-be-in-sync)
    (should (= 0 (bidi-lsp-make-rtl (point-min) (point-max))))
    (should (= 1 (apply #'bidi-lsp-make-ltr (bidi-lsp-tests--line-bounds 2))))
    (should (equal (concat bidi-lsp-tests--lrm "مرحبا") (bidi-lsp-tests--line 2)))
    (should (equal "ltr" (plist-get (car (apply #'bidi-lsp-paragraphs
                                                (bidi-lsp-tests--line-bounds 2)))
                                    :direction)))))

(ert-deftest bidi-lsp-test-isolate-region ()
  (bidi-lsp-tests--with-buffer "قال user: مرحبا"
    (let ((beg (search-forward "user:" nil t)))
      (should (= 2 (bidi-lsp-isolate-region (- beg 5) beg)))  ; FSI and PDI
      (should (equal (concat "قال " bidi-lsp-tests--fsi "user:" bidi-lsp-tests--pdi " مرحبا")
                     (buffer-string)))
      (should (= 0 (bidi-lsp-isolate-region (- beg 5) (+ beg 2))))
      (should (= 0 (bidi-lsp-insert-marks "isolate" (- beg 5) (+ beg 2) :isolate "auto")))
      (bidi-lsp-tests--should-be-in-sync)
      (should-error (bidi-lsp-isolate-region (point-min) (point-max) "sideways")
                    :type 'user-error))))

(ert-deftest bidi-lsp-test-placeholders-runs-and-strip ()
  (bidi-lsp-tests--with-buffer
      "%@ مدفوعات بدون فوائد من %@\nتواصل معنا: support@example.com أو +1 (555) 123-4567\n"
    (let ((original (buffer-string)))
      (should (= 4 (apply #'bidi-lsp-isolate-placeholders (bidi-lsp-tests--line-bounds 1))))
      (should (equal (concat bidi-lsp-tests--fsi "%@" bidi-lsp-tests--pdi " مدفوعات بدون فوائد من "
                             bidi-lsp-tests--fsi "%@" bidi-lsp-tests--pdi)
                     (bidi-lsp-tests--line 1)))
      (should (= 0 (apply #'bidi-lsp-isolate-placeholders (bidi-lsp-tests--line-bounds 1))))
      (should (= 0 (apply #'bidi-lsp-mark-placeholders (bidi-lsp-tests--line-bounds 1))))
      (should (< 0 (apply #'bidi-lsp-isolate-runs (bidi-lsp-tests--line-bounds 2))))
      (should (= 0 (apply #'bidi-lsp-isolate-runs (bidi-lsp-tests--line-bounds 2))))
      (bidi-lsp-tests--should-be-in-sync)
      ;; Balanced isolates are not unpaired; stripping all gives the text back.
      (should (= 0 (bidi-lsp-strip (point-min) (point-max))))
      (should (< 0 (bidi-lsp-strip (point-min) (point-max) t)))
      (should (equal original (buffer-string))))))

(ert-deftest bidi-lsp-test-mark-placeholders ()
  (bidi-lsp-tests--with-buffer "تم حذف %d ملفات"
    (should (= 1 (bidi-lsp-mark-placeholders (point-min) (point-max))))
    (should (equal (concat "تم حذف %d" bidi-lsp-tests--rlm " ملفات") (buffer-string)))))

(ert-deftest bidi-lsp-test-strip-unpaired ()
  (bidi-lsp-tests--with-buffer (concat "a " bidi-lsp-tests--lri "b" bidi-lsp-tests--pdi
                                       " c " bidi-lsp-tests--rlo "d")
    (should (= 1 (bidi-lsp-strip (point-min) (point-max))))
    (should (equal (concat "a " bidi-lsp-tests--lri "b" bidi-lsp-tests--pdi " c d")
                   (buffer-string)))))

(ert-deftest bidi-lsp-test-mark-directions-with-another-strategy ()
  (bidi-lsp-tests--with-buffer "Hello عالم كبير جدا\nשלום\n"
    (let ((bidi-lsp-strategy "estimate"))
      (bidi-lsp-shutdown)
      (bidi-lsp-mode 1)
      (should (= 1 (bidi-lsp-mark-directions (point-min) (point-max))))
      (should (equal (concat bidi-lsp-tests--rlm "Hello عالم كبير جدا") (bidi-lsp-tests--line 1)))
      (should (= 0 (bidi-lsp-mark-directions (point-min) (point-max)))))
    (bidi-lsp-shutdown)))

(ert-deftest bidi-lsp-test-source-locale-setting ()
  ;; Protocol/specification.md, "Settings": sourceLocale, default "en".
  (should (equal "en" (plist-get (bidi-lsp--settings) :sourceLocale)))
  (let ((bidi-lsp-source-locale "fr"))
    (should (equal "fr" (plist-get (bidi-lsp--settings) :sourceLocale)))))

(ert-deftest bidi-lsp-test-trojan-source-with-flymake ()
  (bidi-lsp-tests--with-buffer bidi-lsp-tests--trojan
    c-mode
    (should (equal "c" (bidi-lsp--language-id)))
    (should flymake-mode)
    (bidi-lsp-tests--wait-for #'bidi-lsp-diagnostics)
    (flymake-start)
    (bidi-lsp-tests--wait-for #'flymake-diagnostics)
    (let* ((diagnostics (sort (flymake-diagnostics)
                              (lambda (a b) (< (flymake-diagnostic-beg a)
                                               (flymake-diagnostic-beg b)))))
           ;; The RLO is both bidi.inComment (an error) and bidi.override.
           (first (seq-find (lambda (d) (eq :error (flymake-diagnostic-type d))) diagnostics)))
      (should (eq :error (flymake-diagnostic-type first)))
      (should (string-match-p "\\[bidi.inComment\\]" (flymake-diagnostic-text first)))
      (should (equal bidi-lsp-tests--rlo
                     (buffer-substring (flymake-diagnostic-beg first)
                                       (flymake-diagnostic-end first)))))
    ;; The preferred fix on line 3.
    (goto-char (point-min))
    (forward-line 2)
    (should (bidi-lsp-fix-at-point))
    (should-not (string-search bidi-lsp-tests--rlo (buffer-string)))
    (bidi-lsp-tests--should-be-in-sync)
    (goto-char (point-min))
    (should-not (bidi-lsp-fix-at-point))
    ;; Fix the rest.
    (should (bidi-lsp-fix-all))
    (let ((version bidi-lsp--version))
      (bidi-lsp-tests--wait-for (lambda () (equal (bidi-lsp-diagnostics-version) version))))
    (should (null (bidi-lsp-diagnostics)))
    (flymake-start)
    (bidi-lsp-tests--wait-for (lambda () (null (flymake-diagnostics))))))

(ert-deftest bidi-lsp-test-inlay-hints ()
  (bidi-lsp-tests--with-buffer (concat bidi-lsp-tests--rlm "שלום\nx " bidi-lsp-tests--lri "y"
                                       bidi-lsp-tests--pdi)
    (bidi-lsp-update-hints)
    (should (equal '((1 . "<RLM>") (9 . "<LRI>") (11 . "<PDI>")) (bidi-lsp-hints)))
    (let ((bidi-lsp-inlay-hints nil))
      (bidi-lsp-update-hints))
    (should (null (bidi-lsp-hints)))))

(ert-deftest bidi-lsp-test-describe-line ()
  (bidi-lsp-tests--with-buffer "שלום world"
    (let ((text (bidi-lsp-describe-line)))
      (should (string-match-p "Direction: rtl" text))
      (should (string-match-p "Visual order" text)))))

(ert-deftest bidi-lsp-test-errors-are-user-errors ()
  (bidi-lsp-tests--with-buffer "abc\ndef"
    (should-error (bidi-lsp-insert-marks "direction" (point-min) (point-max) :direction "up")
                  :type 'user-error)
    ;; The daemon keeps serving.
    (should (= 1 (bidi-lsp-make-rtl (point-min) (point-min))))))

(ert-deftest bidi-lsp-test-shutdown-turns-the-mode-off ()
  (bidi-lsp-tests--with-buffer "x"
    (bidi-lsp-shutdown)
    (should-not bidi-lsp-mode)
    (should-not (bidi-lsp-running-p))
    (bidi-lsp-mode 1)
    (should (bidi-lsp-running-p))
    (bidi-lsp-tests--should-be-in-sync)))

(require 'bidi-lsp-view-tests)
(require 'bidi-lsp-flymake-tests)
(require 'bidi-lsp-daemon-tests)
(require 'bidi-lsp-l10n-tests)
(require 'bidi-lsp-documents-tests)

(provide 'bidi-lsp-tests)
;;; bidi-lsp-tests.el ends here
