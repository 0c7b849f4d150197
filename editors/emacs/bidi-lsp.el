;;; bidi-lsp.el --- RTL and mixed-direction text  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; Author: the bidi-lsp authors
;; Maintainer: the bidi-lsp authors
;; Version: 0.2.0
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
(require 'bidi-lsp-daemon)
(require 'bidi-lsp-flymake)

;;;; Customization

(defcustom bidi-lsp-auto-direction 'line
  "How `bidi-lsp-mode' sets the paragraph direction of a buffer.
`line' (the default): every line is its own paragraph, and Emacs
gives each one its own direction from its first strong character
\(UAX #9 rules P2 and P3, the daemon's `firstStrong'), so that the
English lines of a mixed note stay left to right and the Arabic or
Hebrew ones right to left.  With another `bidi-lsp-strategy', use
`bidi-lsp-mark-directions' to make the lines whose direction comes
out differently display so.
`visible': `bidi-paragraph-direction' is the natural direction of
most lines in the buffer's windows (found with `bidi-lsp-strategy'),
kept up to date as the text changes and scrolls; every line then
displays in that direction.
`first': the direction of the first line with a strong character,
among the first 1000 lines.
nil: leave the direction alone.
\(`document' is the old name of `visible'.)"
  :type '(choice (const :tag "Each line by itself" line)
                 (const :tag "Most lines in view" visible)
                 (const :tag "First line with a strong character" first)
                 (const :tag "Do not change" nil))
  :group 'bidi-lsp)

(defcustom bidi-lsp-inlay-hints t
  "Whether to show the invisible bidi controls by name, e.g. <RLM>."
  :type 'boolean
  :group 'bidi-lsp)

(defcustom bidi-lsp-eldoc t
  "Whether eldoc shows the visual order of lines that Emacs reorders."
  :type 'boolean
  :group 'bidi-lsp)

(defcustom bidi-lsp-idle-delay 0.3
  "Idle seconds after a change or a scroll before the view is updated."
  :type 'number
  :group 'bidi-lsp)

(defcustom bidi-lsp-view-margin 40
  "Lines above and below a window's text that the automatic updates cover."
  :type 'integer
  :group 'bidi-lsp)

(defface bidi-lsp-hint '((t :inherit shadow :height 0.8))
  "Face of the names shown for invisible bidi controls."
  :group 'bidi-lsp)

(defvar bidi-lsp-mode)

(defconst bidi-lsp--view-limit 1000
  "The most lines one automatic request covers.")

;;;; The lines in view

(defun bidi-lsp--window-spans (&optional buffer)
  "The spans (BEG . END) of BUFFER's text in its windows, with a margin.
Sorted and merged; nil when no window shows BUFFER.  A window's span
is its start and as many lines as it has rows (a line that wraps
takes more rows, so this covers at least what it shows)."
  (let ((buffer (or buffer (current-buffer))) spans)
    (dolist (window (get-buffer-window-list buffer nil t))
      (with-current-buffer buffer
        (save-excursion
          (goto-char (window-start window))
          (let* ((rows (min (window-body-height window) bidi-lsp--view-limit))
                 (margin (max 0 (min bidi-lsp-view-margin (/ (- bidi-lsp--view-limit rows) 2))))
                 (beg (progn (forward-line (- margin)) (point)))
                 (end (progn (goto-char (window-start window))
                             (forward-line (+ rows margin))
                             (point))))
            (push (cons beg end) spans)))))
    (let (merged)
      (dolist (span (sort spans (lambda (a b) (< (car a) (car b)))))
        (if (and merged (<= (car span) (cdar merged)))
            (setcdr (car merged) (max (cdr span) (cdar merged)))
          (push span merged)))
      (nreverse merged))))

(defun bidi-lsp--view-spans ()
  "The spans of the buffer in view, else the lines around point."
  (or (bidi-lsp--window-spans)
      (save-excursion
        (let* ((beg (progn (forward-line (- bidi-lsp-view-margin)) (point)))
               (end (progn (forward-line (* 2 bidi-lsp-view-margin)) (point))))
          (list (cons beg end))))))

;;;; Directions

(defun bidi-lsp-paragraphs (beg end)
  "The paragraphs of the lines from BEG to END, with their natural direction.
A list of plists (:line :start :end :direction :basis :strongCharacter)."
  (append (plist-get (bidi-lsp-request :bidi/naturalDirection
                                       (bidi-lsp--params :range (bidi-lsp--range beg end)))
                     :paragraphs)
          nil))

(defun bidi-lsp--describe-paragraph (paragraph)
  "A line of text about PARAGRAPH's direction."
  (let ((strong (plist-get paragraph :strongCharacter)))
    (format "Line %d: %s (%s%s)" (1+ (plist-get paragraph :line))
            (plist-get paragraph :direction) (plist-get paragraph :basis)
            (if strong
                (format ", first strong character at %d:%d"
                        (1+ (plist-get strong :line)) (1+ (plist-get strong :character)))
              ""))))

(defun bidi-lsp--target ()
  "What a command acts on without a prefix, as a list (BEG END).
The active region; else, in a localization file, point (the daemon
takes the value under it); else the current line."
  (cond ((use-region-p) (list (region-beginning) (region-end)))
        ((bidi-lsp-localization-p) (list (point) (point)))
        (t (list (line-beginning-position) (line-end-position)))))

(defun bidi-lsp-show-direction (beg end)
  "Show the natural direction of the lines from BEG to END and its basis.
Interactively, the lines of the region, or the current line."
  (interactive (bidi-lsp--target))
  (let ((text (mapconcat #'bidi-lsp--describe-paragraph (bidi-lsp-paragraphs beg end) "\n")))
    (message "%s" text)
    text))

(defun bidi-lsp--majority (paragraphs)
  "The direction of most PARAGRAPHS with a strong character, as a symbol.
The first one's on a tie; nil when none has one.  With
`bidi-lsp-auto-direction' set to `first', the first one's."
  (let ((counts (list 0 0)) first)
    (cl-loop for paragraph in paragraphs
             unless (equal (plist-get paragraph :basis) "fallback")
             do (let ((rtl (equal (plist-get paragraph :direction) "rtl")))
                  (unless first (setq first (if rtl 'right-to-left 'left-to-right)))
                  (cl-incf (nth (if rtl 1 0) counts)))
             until (and first (eq bidi-lsp-auto-direction 'first)))
    (cond ((or (eq bidi-lsp-auto-direction 'first) (= (nth 0 counts) (nth 1 counts))) first)
          ((> (nth 1 counts) (nth 0 counts)) 'right-to-left)
          (t 'left-to-right))))

(defun bidi-lsp--direction-span ()
  "The span whose lines decide the direction under `bidi-lsp-auto-direction'."
  (if (eq bidi-lsp-auto-direction 'first)
      (save-restriction
        (widen)
        (save-excursion
          (goto-char (point-min))
          (forward-line bidi-lsp--view-limit)
          (cons (point-min) (point))))
    (car (bidi-lsp--view-spans))))

(defun bidi-lsp-document-direction (&optional beg end)
  "The natural direction of the text, `left-to-right' or `right-to-left'.
That of most lines from BEG to END (by default, the lines in view);
with `bidi-lsp-auto-direction' set to `first', of the first line
with a strong character.  nil when no line has one."
  (let ((span (if beg (cons beg end) (bidi-lsp--direction-span))))
    (bidi-lsp--majority (bidi-lsp-paragraphs (car span) (cdr span)))))

(defun bidi-lsp--set-direction (direction)
  "Make DIRECTION the buffer's, as `bidi-lsp-auto-direction' says."
  (pcase bidi-lsp-auto-direction
    ('line
     (setq-local bidi-paragraph-direction nil
                 bidi-paragraph-start-re "^"
                 bidi-paragraph-separate-re "^"))
    ((or 'visible 'document 'first)
     (when direction
       (setq-local bidi-paragraph-direction direction)))))

(defun bidi-lsp-update-direction ()
  "Set the paragraph direction of the buffer as `bidi-lsp-auto-direction' says."
  (interactive)
  (bidi-lsp--set-direction (and (memq bidi-lsp-auto-direction '(visible document first))
                                (bidi-lsp-document-direction))))

;;;; Visual order

(defconst bidi-lsp--visual-options '(:combiningMarks "afterBase" :controls "strip")
  "The `bidi/visualOrder' options for the text shown to the user.
Combining marks after their base (UAX #9 L3), so that Emacs draws
them on the right letter; no bidi controls, which would end the
override that keeps Emacs from reordering the text again.")

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
                                              :include ["visualText"] bidi-lsp--visual-options))
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
  "What eldoc shows for the line LOGICAL whose visual order is PARAGRAPHS.
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
              :include ["visualText"] bidi-lsp--visual-options)
       (lambda (answer)
         (when (and (buffer-live-p buffer)
                    (eq version (buffer-local-value 'bidi-lsp--version buffer)))
           (funcall callback (bidi-lsp--eldoc-text (append (plist-get answer :paragraphs) nil)
                                                   logical)))))
       t))))

;;;; Inserting marks

(defconst bidi-lsp--modes
  '(("direction" . "direction") ("isolate" . "isolate") ("placeholders" . "style")
    ("runs" . nil) ("strip" . "only"))
  "The insertMarks modes and the name of each one's option.")

(defconst bidi-lsp--mode-values
  '(("direction" "rtl" "ltr") ("isolate" "auto" "ltr" "rtl")
    ("placeholders" "isolate" "marks") ("strip" "all" "unpaired"))
  "The values of each insertMarks mode's option.")

(defvar bidi-lsp--quiet nil
  "Non-nil while a command inserts marks many times: no message for each.")

(defun bidi-lsp-insert-marks (mode beg end &rest options)
  "Insert the bidi marks of MODE between BEG and END, as the daemon says.
MODE is \"direction\", \"isolate\", \"placeholders\", \"runs\" or
\"strip\"; OPTIONS is a plist of the request's other fields, such as
\(:direction \"rtl\").  The daemon acts on exactly BEG to END (for
\"direction\", on the paragraphs of its lines).  Interactively, the
active region, else the current line (the value under point in a
localization file).  Says what changed, or that nothing did.
Returns the number of edits."
  (interactive
   (let* ((mode (completing-read "Mode: " (mapcar #'car bidi-lsp--modes) nil t))
          (option (cdr (assoc mode bidi-lsp--modes)))
          (values (cdr (assoc mode bidi-lsp--mode-values))))
     (append (list mode) (bidi-lsp--target)
             (when option
               (list (intern (concat ":" option))
                     (completing-read (format "%s: " option) values nil t nil nil
                                      (car values)))))))
  (let* ((answer (bidi-lsp-request :bidi/insertMarks
                                   (apply #'bidi-lsp--params :mode mode
                                          :range (bidi-lsp--range beg end) options)))
         (count (bidi-lsp--apply-edits (plist-get answer :edits))))
    (unless bidi-lsp--quiet
      (message "bidi-lsp: %s: %s"
               (mapconcat #'identity
                          (cons mode (cl-loop for (_key value) on options by #'cddr
                                              when (stringp value) collect value))
                          " ")
               (if (= count 0) "nothing to change"
                 (format "%d edit%s" count (if (= count 1) "" "s")))))
    count))

(defun bidi-lsp-make-rtl (beg end)
  "Make the lines from BEG to END right-to-left paragraphs.
Inserts RLM where needed."
  (interactive (bidi-lsp--target))
  (bidi-lsp-insert-marks "direction" beg end :direction "rtl"))

(defun bidi-lsp-make-ltr (beg end)
  "Make the lines from BEG to END left-to-right paragraphs.
Inserts LRM where needed."
  (interactive (bidi-lsp--target))
  (bidi-lsp-insert-marks "direction" beg end :direction "ltr"))

(defun bidi-lsp-isolate-region (beg end &optional direction)
  "Wrap the text from BEG to END (within one line) in an isolate.
DIRECTION is \"auto\" (FSI, the default), \"ltr\" (LRI) or \"rtl\" (RLI);
with a prefix argument, ask for it."
  (interactive
   (append (if (use-region-p) (list (region-beginning) (region-end))
             (user-error "bidi-lsp: select the text to isolate"))
           (list (if current-prefix-arg
                     (completing-read "Isolate: " '("auto" "ltr" "rtl") nil t)
                   "auto"))))
  (bidi-lsp-insert-marks "isolate" beg end :isolate (or direction "auto")))

(defun bidi-lsp-isolate-placeholders (beg end)
  "Isolate the format placeholders from BEG to END.
Wraps every placeholder (%@, %1$s, {0}, ${name}, ...) in FSI...PDI.
Interactively, the region, else the current line (or value)."
  (interactive (bidi-lsp--target))
  (bidi-lsp-insert-marks "placeholders" beg end :style "isolate"))

(defun bidi-lsp-mark-placeholders (beg end)
  "Mark the format placeholders from BEG to END.
Puts the mark of the line's direction (LRM or RLM) after each.
Interactively, the region, else the current line (or value)."
  (interactive (bidi-lsp--target))
  (bidi-lsp-insert-marks "placeholders" beg end :style "marks"))

(defun bidi-lsp-isolate-runs (beg end)
  "Isolate the opposite-direction runs from BEG to END.
Interactively, the region, else the current line (or value)."
  (interactive (bidi-lsp--target))
  (bidi-lsp-insert-marks "runs" beg end))

(defun bidi-lsp-strip (beg end &optional all)
  "Remove the unpaired bidi controls from BEG to END.
With ALL (interactively, a prefix argument), remove every bidi
control.  Interactively, the region, else the value under point in
a localization file, else the whole buffer."
  (interactive (append (cond ((use-region-p) (list (region-beginning) (region-end)))
                             ((bidi-lsp-localization-p) (list (point) (point)))
                             (t (list (point-min) (point-max))))
                       (list current-prefix-arg)))
  (bidi-lsp-insert-marks "strip" beg end :only (if all "all" "unpaired")))

(defun bidi-lsp-mark-directions (beg end)
  "Make each line from BEG to END show in its natural direction.
Inserts LRM or RLM at the start of the lines whose natural direction
\(with `bidi-lsp-strategy') differs from what Emacs finds by itself.
Use it with `bidi-lsp-auto-direction' set to `line'.  Interactively,
the region, else the whole buffer."
  (interactive (if (use-region-p) (list (region-beginning) (region-end))
                 (list (point-min) (point-max))))
  (let ((count 0) (bidi-lsp--quiet t))
    ;; From the last line up, so that earlier positions stay valid.
    (dolist (paragraph (reverse (bidi-lsp-paragraphs beg end)))
      (unless (equal (plist-get paragraph :basis) "fallback")
        (let ((start (bidi-lsp--point (list :line (plist-get paragraph :line) :character 0))))
          (cl-incf count (bidi-lsp-insert-marks "direction" start start
                                                :direction (plist-get paragraph :direction)
                                                :strategy "firstStrong")))))
    (message "bidi-lsp: mark directions: %s"
             (if (= count 0) "nothing to change" (format "%d line%s marked" count (if (= count 1) "" "s"))))
    count))

;;;; Inlay hints

(defun bidi-lsp--clear-hints (&optional beg end)
  "Remove the hint overlays from BEG to END (default: the whole buffer)."
  (save-restriction
    (widen)
    (remove-overlays (or beg (point-min)) (or end (point-max)) 'bidi-lsp-hint t)))

(defun bidi-lsp--clear-hints-outside (spans)
  "Remove the hint overlays that lie outside SPANS, a list of (BEG . END)."
  (save-restriction
    (widen)
    (dolist (overlay (overlays-in (point-min) (point-max)))
      (when (and (overlay-get overlay 'bidi-lsp-hint)
                 (not (cl-some (lambda (span) (<= (car span) (overlay-start overlay) (cdr span)))
                               spans)))
        (delete-overlay overlay)))))

(defun bidi-lsp--hint-label (hint)
  "The label of the LSP inlay HINT, as a string."
  (let ((label (plist-get hint :label)))
    (if (stringp label) label (mapconcat (lambda (part) (plist-get part :value)) label ""))))

(defun bidi-lsp--show-hints (beg end hints)
  "Show HINTS (a vector of LSP InlayHints) from BEG to END, replacing those there."
  (bidi-lsp--clear-hints beg end)
  (let ((hints (append hints nil)))
    (cl-loop for hint in hints
             for pos in (bidi-lsp--points (mapcar (lambda (h) (plist-get h :position)) hints))
             do (let ((overlay (make-overlay pos pos nil t nil)))
                  (overlay-put overlay 'bidi-lsp-hint t)
                  (overlay-put overlay 'before-string
                               (propertize (concat "<" (bidi-lsp--hint-label hint) ">")
                                           'face 'bidi-lsp-hint))))))

(defun bidi-lsp--hint-params (beg end)
  "The inlayHint request for the text from BEG to END."
  (bidi-lsp--params :range (bidi-lsp--range beg end)))

(defun bidi-lsp-update-hints ()
  "Show the invisible bidi controls in view by name."
  (interactive)
  (let ((spans (bidi-lsp--view-spans)))
    (bidi-lsp--clear-hints-outside spans)
    (dolist (span spans)
      (bidi-lsp--show-hints (car span) (cdr span)
                            (and bidi-lsp-inlay-hints
                                 (bidi-lsp-request :textDocument/inlayHint
                                                   (bidi-lsp--hint-params (car span) (cdr span))))))))

(defun bidi-lsp-hints ()
  "The hints shown in the buffer, as a list of (POSITION . LABEL)."
  (save-restriction
    (widen)
    (sort (cl-loop for overlay in (overlays-in (point-min) (point-max))
                   when (overlay-get overlay 'bidi-lsp-hint)
                   collect (cons (overlay-start overlay)
                                 (substring-no-properties (overlay-get overlay 'before-string))))
          (lambda (a b) (< (car a) (car b))))))

;;;; Automatic updates

(defvar-local bidi-lsp--update-timer nil "The idle timer of the buffer's next update.")
(defvar-local bidi-lsp--in-flight 0 "The automatic requests of the buffer not yet answered.")
(defvar-local bidi-lsp--update-again nil "Non-nil when an update waits for the answers.")
(defvar-local bidi-lsp--updated nil "(VERSION SPANS) of the last update.")

(defun bidi-lsp--schedule-update (&optional delay)
  "Update the view after DELAY idle seconds (default `bidi-lsp-idle-delay')."
  (when bidi-lsp-mode
    (when (timerp bidi-lsp--update-timer) (cancel-timer bidi-lsp--update-timer))
    (setq bidi-lsp--update-timer
          (run-with-idle-timer (or delay bidi-lsp-idle-delay) nil
                               #'bidi-lsp--update (current-buffer)))))

(defun bidi-lsp--answered (buffer version)
  "Count an automatic answer for BUFFER asked at VERSION; update again if due."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq bidi-lsp--in-flight (max 0 (1- bidi-lsp--in-flight)))
      (when (and (= bidi-lsp--in-flight 0)
                 (or bidi-lsp--update-again (not (eq version bidi-lsp--version))))
        (setq bidi-lsp--update-again nil
              bidi-lsp--updated nil)
        (bidi-lsp--schedule-update 0)))))

(defun bidi-lsp--ask (buffer method params apply)
  "Ask the daemon METHOD with PARAMS for BUFFER; call APPLY with the result.
APPLY runs in BUFFER, only if it has not changed since."
  (let ((version bidi-lsp--version))
    (cl-incf bidi-lsp--in-flight)
    (bidi-lsp--async-request
     method params
     (lambda (result)
       (when (and (buffer-live-p buffer) (eq version (buffer-local-value 'bidi-lsp--version buffer)))
         (with-current-buffer buffer (funcall apply result)))
       (bidi-lsp--answered buffer version))
     (lambda () (bidi-lsp--answered buffer version)))))

(defun bidi-lsp--update (buffer)
  "Update the hints and the direction of BUFFER's text in view.
Asks only for the lines in its windows (nothing when none shows
it), one request at a time per kind, none while answers are due."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq bidi-lsp--update-timer nil)
      (when (and bidi-lsp-mode bidi-lsp--version (bidi-lsp-running-p))
        (if (> bidi-lsp--in-flight 0)
            (setq bidi-lsp--update-again t)
          (let ((spans (bidi-lsp--window-spans)))
            (when (and spans (not (equal bidi-lsp--updated (list bidi-lsp--version spans))))
              (setq bidi-lsp--updated (list bidi-lsp--version spans))
              (bidi-lsp--clear-hints-outside spans)
              (dolist (span spans)
                (if (not bidi-lsp-inlay-hints)
                    (bidi-lsp--clear-hints (car span) (cdr span))
                  (bidi-lsp--ask buffer :textDocument/inlayHint
                                 (bidi-lsp--hint-params (car span) (cdr span))
                                 (lambda (hints) (bidi-lsp--show-hints (car span) (cdr span) hints)))))
              (when (memq bidi-lsp-auto-direction '(visible document first))
                (let ((span (bidi-lsp--direction-span)))
                  (bidi-lsp--ask buffer :bidi/naturalDirection
                                 (bidi-lsp--params :range (bidi-lsp--range (car span) (cdr span)))
                                 (lambda (answer)
                                   (bidi-lsp--set-direction
                                    (bidi-lsp--majority
                                     (append (plist-get answer :paragraphs) nil))))))))))))))

(defun bidi-lsp--window-scrolled (window _start)
  "Update WINDOW's buffer when scrolling pauses."
  (with-current-buffer (window-buffer window) (bidi-lsp--schedule-update)))

(defun bidi-lsp--windows-changed ()
  "Update the buffer when its windows change."
  (bidi-lsp--schedule-update))

(defun bidi-lsp--update-all ()
  "Update every attached buffer in view (after the daemon started)."
  (dolist (buffer (hash-table-values bidi-lsp--buffers))
    (when (and (buffer-live-p buffer) (get-buffer-window buffer t))
      (with-current-buffer buffer
        (setq bidi-lsp--updated nil
              bidi-lsp--in-flight 0)
        (bidi-lsp--schedule-update 0)))))

(add-hook 'bidi-lsp-after-start-hook #'bidi-lsp--update-all)

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
  "Turn `bidi-lsp-mode' off (before the major mode changes)."
  (bidi-lsp-mode -1))

(defun bidi-lsp--setup ()
  "Attach the buffer to the daemon.  Doing it again changes nothing."
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
