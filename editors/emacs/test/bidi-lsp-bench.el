;;; bidi-lsp-bench.el --- What bidi-lsp-mode costs Emacs on a large buffer  -*- lexical-binding: t; -*-

;;; Commentary:

;; Not a test: a measurement.  Opens a generated mixed-direction buffer
;; of LINES lines (English, Arabic, Hebrew; with CONTROLS=1 an RLM on
;; every fifth line) with `bidi-lsp-mode', then makes edits and scrolls,
;; running after each what Emacs runs when typing pauses (the mode's idle
;; update) and waiting for every answer and for the diagnostics.  Prints
;; wall-clock and Emacs CPU time (`get-internal-run-time') for each step,
;; and the largest range, in lines, that the mode asked for by itself.
;;
;;   BIDI_LSP=.build/release/bidi-lsp LINES=20000 emacs -Q --batch \
;;     -L editors/emacs -l editors/emacs/test/bidi-lsp-bench.el
;;
;; Run it with another checkout's -L to compare versions.

;;; Code:

(require 'bidi-lsp)

(setq bidi-lsp-command (list (expand-file-name (or (getenv "BIDI_LSP") ".build/release/bidi-lsp"))))
(setq bidi-lsp-idle-delay 3600)         ; the bench runs the updates itself

(defvar bidi-lsp-bench--largest 0 "The largest range of a request, in lines.")

(defun bidi-lsp-bench--record (_connection &rest message)
  "Note the range of the request MESSAGE sent by the mode."
  (let ((range (plist-get (plist-get message :params) :range)))
    (when (and range (plist-get message :id))
      (setq bidi-lsp-bench--largest
            (max bidi-lsp-bench--largest
                 (1+ (- (plist-get (plist-get range :end) :line)
                        (plist-get (plist-get range :start) :line))))))))

(advice-add 'jsonrpc-connection-send :before #'bidi-lsp-bench--record)

(defun bidi-lsp-bench--text (lines controls)
  "A mixed-direction text of LINES lines; an RLM on every fifth if CONTROLS."
  (with-temp-buffer
    (dotimes (i lines)
      (insert (pcase (% i 5)
                (0 (format "Meeting notes %d: the report is due at 10:30\n" i))
                (1 (format "مرحبا بكم في الاجتماع رقم %d اليوم\n" i))
                (2 (format "שלום עולם, פגישה מספר %d (room B)\n" i))
                (3 (format "Mixed: the word سلام means peace, %d times\n" i))
                (_ (format "قائمة %d%s end\n" i (if controls "\u200f" ""))))))
    (buffer-string)))

(defun bidi-lsp-bench--settled-p ()
  "Non-nil when the daemon answered everything about the buffer's last version."
  (and (equal (bidi-lsp-diagnostics-version) bidi-lsp--version)
       (or (not (boundp 'bidi-lsp--in-flight)) (= 0 (symbol-value 'bidi-lsp--in-flight)))))

(defun bidi-lsp-bench--settle ()
  "Run the idle update and wait until everything is answered."
  (bidi-lsp--update (current-buffer))
  (with-timeout (120 (error "The daemon did not answer within 120 s"))
    (while (not (bidi-lsp-bench--settled-p))
      (accept-process-output nil 0.005))))

(defmacro bidi-lsp-bench--time (label &rest body)
  "Run BODY; print LABEL with its wall-clock and Emacs CPU time."
  (declare (indent 1))
  `(let ((wall (float-time)) (cpu (get-internal-run-time)))
     ,@body
     (message "%-26s wall %7.3f s   Emacs CPU %7.3f s" ,label (- (float-time) wall)
              (float-time (time-subtract (get-internal-run-time) cpu)))))

(let* ((lines (string-to-number (or (getenv "LINES") "20000")))
       (controls (equal (getenv "CONTROLS") "1"))
       (text (bidi-lsp-bench--text lines controls)))
  (message "bidi-lsp.el from %s; %d lines, %.1f MB%s"
           (file-name-directory (locate-library "bidi-lsp")) lines (/ (string-bytes text) 1e6)
           (if controls ", an RLM on every fifth line" ""))
  (switch-to-buffer (generate-new-buffer "bench.txt"))
  (insert text)
  (goto-char (point-min))
  (text-mode)
  (bidi-lsp-bench--time "mode on (start, didOpen)"
    (bidi-lsp-mode 1))
  (bidi-lsp-bench--time "then until answered"
    (bidi-lsp-bench--settle))
  (goto-char (point-min))
  (forward-line (/ lines 2))
  (set-window-start nil (line-beginning-position -10))
  (bidi-lsp-bench--time "scroll to the middle" (bidi-lsp-bench--settle))
  (dotimes (k 3)
    (bidi-lsp-bench--time (format "edit %d + idle pause" (1+ k))
      (insert "x")
      (bidi-lsp-bench--settle)))
  (message "largest range asked by the mode itself: %d lines" bidi-lsp-bench--largest)
  (bidi-lsp-shutdown))

;;; bidi-lsp-bench.el ends here
