;;; bidi-lsp.el --- RTL and mixed-direction text  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; Author: the bidi-lsp authors
;; Maintainer: the bidi-lsp authors
;; Version: 0.3.0
;; URL: https://github.com/bidi-lsp/bidi-lsp
;; Keywords: i18n, languages, convenience
;; Package-Requires: ((emacs "28.1"))

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; `bidi-lsp-mode' connects a buffer to the bidi-lsp daemon, which knows
;; about right-to-left and mixed-direction text (Arabic, Hebrew, ...
;; mixed with English).  Emacs has its own bidi display engine, so this
;; package does not reorder anything itself.  It uses the daemon to:
;;
;; - make each line its own paragraph, so that Emacs gives each line
;;   its own direction (`bidi-lsp-auto-direction');
;; - insert LRM/RLM marks and isolates where they are needed
;;   (`bidi-lsp-make-rtl', `bidi-lsp-isolate-region',
;;   `bidi-lsp-isolate-placeholders', `bidi-lsp-isolate-runs',
;;   `bidi-lsp-strip', `bidi-lsp-insert-marks' for any mode);
;; - show the visual order of a line as plain left-to-right text
;;   (`bidi-lsp-show-visual-order', and eldoc), to check what a line
;;   really shows;
;; - report Trojan Source hazards with Flymake, with quick fixes
;;   (`bidi-lsp-fix-at-point', `bidi-lsp-fix-all');
;; - show the invisible bidi controls by name (`bidi-lsp-inlay-hints').
;;
;; What the mode asks the daemon by itself covers the lines in the
;; buffer's windows (and `bidi-lsp-view-margin' lines around them),
;; once typing or scrolling pauses; whole-buffer requests are made
;; only by the commands that ask for them.
;;
;; Usage:
;;
;;   (require 'bidi-lsp)
;;   (dolist (hook '(text-mode-hook prog-mode-hook conf-mode-hook po-mode-hook))
;;     (add-hook hook #'bidi-lsp-mode))
;;   (define-key bidi-lsp-mode-map (kbd "C-c b") 'bidi-lsp-command-map)
;;
;; One daemon serves the whole Emacs; it speaks JSON-RPC through the
;; built-in `jsonrpc' library, and is started again if it dies.
;; Positions are negotiated in UTF-32, so an LSP character offset is an
;; Emacs column in characters.

;;; Code:

(require 'cl-lib)
(require 'eldoc)
(require 'subr-x)
(require 'bidi-lsp-l10n)
(require 'bidi-lsp-documents)
(require 'bidi-lsp-daemon)
(require 'bidi-lsp-flymake)
(require 'bidi-lsp-view)
(require 'bidi-lsp-marks)

;;;; Customization

(defcustom bidi-lsp-eldoc t
  "Whether eldoc shows the visual order of lines that Emacs reorders."
  :type 'boolean
  :group 'bidi-lsp)

(defvar bidi-lsp-mode)

;;;; Visual order

(defcustom bidi-lsp-visual-shape t
  "Whether the visual order shown joins Arabic letters.
When non-nil, the daemon writes them in the Arabic Presentation
Forms (`shape: true', lam-alef ligatures included).  Emacs shows
that text without reordering it, in visual order: its own shaping
there would join each letter with the wrong neighbours, so nothing
else joins them.  nil: the letters as stored."
  :type 'boolean
  :group 'bidi-lsp)

(defun bidi-lsp--visual-options ()
  "Return the `bidi/visualOrder' options for the text shown to the user.
Combining marks after their base (UAX #9 L3), so that Emacs draws
them on the right letter; no bidi controls, which would end the
override that keeps Emacs from reordering the text again; Arabic
letters joined as `bidi-lsp-visual-shape' says."
  (list :combiningMarks "afterBase" :controls "strip"
        :shape (if bidi-lsp-visual-shape t :json-false)))

(defconst bidi-lsp--controls-regexp "[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
  "The bidi controls.")

(defconst bidi-lsp--reordered-regexp
  (concat "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff"
          "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
  "Right-to-left letters and bidi controls: a line without any shows as stored.
The letters of the Hebrew, Arabic, Syriac, Thaana, N'Ko... blocks and
their presentation forms.")

(defun bidi-lsp--display-string (visual)
  "VISUAL, a text in visual order, as a string Emacs displays as it is.
Wrapped in LEFT-TO-RIGHT OVERRIDE ... POP DIRECTIONAL FORMATTING,
so that Emacs's own bidi display leaves its order alone; the two are
invisible (a terminal would show them as spaces), which does not
stop the override.  A control left in VISUAL (a daemon that ignores
`controls: strip') is dropped: an isolate would end the override."
  (concat (propertize "\u202d" 'invisible t)
          (replace-regexp-in-string bidi-lsp--controls-regexp "" visual t t)
          (propertize "\u202c" 'invisible t)))

(defun bidi-lsp--visual-paragraphs (beg end)
  "The daemon's visual order of the lines from BEG to END."
  (append (plist-get (bidi-lsp-request :bidi/visualOrder
                                       (apply #'bidi-lsp--params :range (bidi-lsp--range beg end)
                                              :include ["visualText"] (bidi-lsp--visual-options)))
                     :paragraphs)
          nil))

(defun bidi-lsp--paragraph-visual-text (paragraph)
  "The visual text of PARAGRAPH, its display lines joined, without controls."
  (replace-regexp-in-string
   bidi-lsp--controls-regexp ""
   (mapconcat (lambda (line) (plist-get line :visualText)) (plist-get paragraph :lines) "")
   t t))

(defun bidi-lsp-visual-lines (beg end)
  "The lines from BEG to END in visual order, one string per paragraph."
  (mapcar #'bidi-lsp--paragraph-visual-text (bidi-lsp--visual-paragraphs beg end)))

(defconst bidi-lsp--visual-buffer "*bidi-lsp visual*"
  "The buffer that shows lines in visual order.")

(defun bidi-lsp-show-visual-order (beg end &optional in-buffer)
  "Show the lines from BEG to END in visual order, as they display.
One line goes to the echo area, forced left to right; more go to
the buffer `*bidi-lsp visual*', where Emacs does not reorder them
again.  With a prefix argument (IN-BUFFER), always use the buffer."
  (interactive (append (bidi-lsp--target) (list current-prefix-arg)))
  (let ((lines (bidi-lsp-visual-lines beg end)))
    (if (and (= (length lines) 1) (not in-buffer))
        (message "%s" (bidi-lsp--display-string (car lines)))
      (with-current-buffer (get-buffer-create bidi-lsp--visual-buffer)
        (let ((inhibit-read-only t))
          (erase-buffer)
          (insert (mapconcat #'identity lines "\n") "\n")
          (goto-char (point-min))
          (special-mode)
          (setq bidi-display-reordering nil))
        (display-buffer (current-buffer))))
    lines))

(defun bidi-lsp--hover-display (text)
  "The daemon's hover TEXT with its visual orders forced left to right."
  (replace-regexp-in-string
   "^\\(Visual order[^:\n]*: \\)\\(.*\\)$"
   (lambda (line)
     (concat (match-string 1 line) (bidi-lsp--display-string (match-string 2 line))))
   text t t))

(defun bidi-lsp-describe-line (&optional pos)
  "Show the daemon's description of the line at POS (default: point).
Its direction, alignment, visual order and bidi controls."
  (interactive)
  (let* ((answer (bidi-lsp-request :textDocument/hover
                                   (bidi-lsp--params :position (bidi-lsp--position (or pos (point))))))
         (text (bidi-lsp--hover-display (plist-get (plist-get answer :contents) :value))))
    (when (called-interactively-p 'interactive)
      (display-message-or-buffer text "*bidi-lsp line*"))
    text))

(defun bidi-lsp--eldoc-text (paragraphs logical)
  "Return the eldoc text of the line LOGICAL whose visual order is PARAGRAPHS.
nil when the line shows as it is stored (left to right, not reordered)."
  (let ((visual (mapconcat #'bidi-lsp--paragraph-visual-text paragraphs ""))
        (rtl (cl-some (lambda (p) (equal (plist-get p :direction) "rtl")) paragraphs)))
    (unless (and (not rtl)
                 (equal visual (replace-regexp-in-string bidi-lsp--controls-regexp "" logical t t)))
      (format "bidi %s: %s" (if rtl "rtl" "ltr") (bidi-lsp--display-string visual)))))

(defun bidi-lsp-eldoc-function (callback &rest _)
  "Give CALLBACK the visual order of the current line, for eldoc.
Only for lines that Emacs reorders, up to 1000 characters."
  (when (and bidi-lsp-mode bidi-lsp--version (bidi-lsp-running-p)
             (<= (- (line-end-position) (line-beginning-position)) 1000))
    (let ((buffer (current-buffer))
          (version bidi-lsp--version)
          (logical (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      ;; Without right-to-left letters or controls a line shows as stored:
      ;; nothing to say, and nothing to ask.
      (when (string-match-p bidi-lsp--reordered-regexp logical)
       (bidi-lsp--async-request
       :bidi/visualOrder
       (apply #'bidi-lsp--params
              :range (bidi-lsp--range (line-beginning-position) (line-end-position))
              :include ["visualText"] (bidi-lsp--visual-options))
       (lambda (answer)
         (when (and (buffer-live-p buffer)
                    (eq version (buffer-local-value 'bidi-lsp--version buffer)))
           (funcall callback (bidi-lsp--eldoc-text (append (plist-get answer :paragraphs) nil)
                                                   logical)))))
       t))))

;;;; The minor mode

(defvar bidi-lsp-command-map
  (let ((map (make-sparse-keymap)))
    (define-key map "d" #'bidi-lsp-show-direction)
    (define-key map "v" #'bidi-lsp-show-visual-order)
    (define-key map "i" #'bidi-lsp-isolate-region)
    (define-key map "r" #'bidi-lsp-make-rtl)
    (define-key map "l" #'bidi-lsp-make-ltr)
    (define-key map "p" #'bidi-lsp-isolate-placeholders)
    (define-key map "P" #'bidi-lsp-mark-placeholders)
    (define-key map "o" #'bidi-lsp-isolate-runs)
    (define-key map "s" #'bidi-lsp-strip)
    (define-key map "m" #'bidi-lsp-insert-marks)
    (define-key map "f" #'bidi-lsp-fix-at-point)
    (define-key map "F" #'bidi-lsp-fix-all)
    (define-key map "h" #'bidi-lsp-describe-line)
    (define-key map "u" #'bidi-lsp-update-direction)
    map)
  "Keymap of the bidi-lsp commands, to bind to a prefix key of your choice.")
(fset 'bidi-lsp-command-map bidi-lsp-command-map)

(defvar bidi-lsp-mode-map (make-sparse-keymap)
  "Keymap of `bidi-lsp-mode' (empty: bind `bidi-lsp-command-map' in it).")

(defvar-local bidi-lsp--saved-direction nil
  "The paragraph direction settings before `bidi-lsp-mode' changed them.")

(defconst bidi-lsp--local-hooks
  '((before-change-functions . bidi-lsp--before-change-function)
    (after-change-functions . bidi-lsp--after-change-function)
    (kill-buffer-hook . bidi-lsp--did-close)
    (after-revert-hook . bidi-lsp-resync)
    (change-major-mode-hook . bidi-lsp--turn-off)
    (window-scroll-functions . bidi-lsp--window-scrolled)
    (window-configuration-change-hook . bidi-lsp--windows-changed))
  "The buffer-local hooks of `bidi-lsp-mode'.")

(defun bidi-lsp--turn-off ()
  "Turn `bidi-lsp-mode' off (before a change of major mode)."
  (bidi-lsp-mode -1))

(defun bidi-lsp--setup ()
  "Attach the buffer to the daemon (again is harmless)."
  (bidi-lsp--did-open)
  (unless bidi-lsp--saved-direction
    (setq bidi-lsp--saved-direction
          (list bidi-paragraph-direction bidi-paragraph-start-re bidi-paragraph-separate-re)))
  (pcase-dolist (`(,hook . ,function) bidi-lsp--local-hooks)
    (add-hook hook function nil t))
  (bidi-lsp--flymake-setup)
  (when bidi-lsp-eldoc
    (add-hook 'eldoc-documentation-functions #'bidi-lsp-eldoc-function nil t)
    (when (bound-and-true-p global-eldoc-mode) (eldoc-mode 1)))
  (when (eq bidi-lsp-auto-direction 'line) (bidi-lsp--set-direction nil))
  (setq bidi-lsp--updated nil)
  (bidi-lsp--schedule-update 0))

(defun bidi-lsp--teardown ()
  "Detach the buffer from the daemon and leave it as it was."
  (pcase-dolist (`(,hook . ,function) bidi-lsp--local-hooks)
    (remove-hook hook function t))
  (remove-hook 'eldoc-documentation-functions #'bidi-lsp-eldoc-function t)
  (when (timerp bidi-lsp--update-timer) (cancel-timer bidi-lsp--update-timer))
  (setq bidi-lsp--update-timer nil bidi-lsp--updated nil bidi-lsp--in-flight 0)
  (bidi-lsp--did-close)
  (bidi-lsp--clear-hints)
  (bidi-lsp--flymake-teardown)
  (when bidi-lsp--saved-direction
    (setq-local bidi-paragraph-direction (nth 0 bidi-lsp--saved-direction)
                bidi-paragraph-start-re (nth 1 bidi-lsp--saved-direction)
                bidi-paragraph-separate-re (nth 2 bidi-lsp--saved-direction))
    (setq bidi-lsp--saved-direction nil)))

;;;###autoload
(define-minor-mode bidi-lsp-mode
  "Right-to-left and mixed-direction text support from the bidi-lsp daemon.
Gives each line its own direction (`bidi-lsp-auto-direction'),
reports bidi hazards with Flymake, shows invisible bidi controls,
and gives commands to insert marks and show the visual order:
\\{bidi-lsp-command-map}
Internal buffers (whose name starts with a space) are left alone."
  :lighter " Bidi"
  :keymap bidi-lsp-mode-map
  (cond ((not bidi-lsp-mode) (bidi-lsp--teardown))
        ((string-prefix-p " " (buffer-name)) (setq bidi-lsp-mode nil))
        (t (condition-case err
               (bidi-lsp--setup)
             (error
              (bidi-lsp--teardown)
              (setq bidi-lsp-mode nil)
              (message "%s" (bidi-lsp--error-text err)))))))

(provide 'bidi-lsp)
;;; bidi-lsp.el ends here
