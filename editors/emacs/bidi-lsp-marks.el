;;; bidi-lsp-marks.el --- Inserting and removing bidi marks with bidi-lsp  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 the bidi-lsp authors

;; This file is not part of GNU Emacs.  It is distributed under the same
;; license as bidi-lsp.

;;; Commentary:

;; Part of bidi-lsp.el.  The commands that insert the marks and isolates
;; the daemon finds (`bidi/insertMarks'): `bidi-lsp-make-rtl',
;; `bidi-lsp-isolate-region', `bidi-lsp-isolate-placeholders',
;; `bidi-lsp-isolate-runs', `bidi-lsp-strip', `bidi-lsp-mark-directions'
;; and `bidi-lsp-insert-marks' for any mode.

;;; Code:

(require 'cl-lib)
(require 'bidi-lsp-l10n)
(require 'bidi-lsp-daemon)
(require 'bidi-lsp-view)

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
  "Insert the bidi controls of MODE between BEG and END, as the daemon plans.
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
             (user-error "bidi-lsp: Select the text to isolate"))
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
  "Isolate each opposite-direction run from BEG to END.
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

(provide 'bidi-lsp-marks)
;;; bidi-lsp-marks.el ends here
