;;; setup.el --- what `emacs -Q --batch' needs before the docs/editors.md recipe  -*- lexical-binding: t -*-
;; A user's Emacs has package.el (or Debian's site-start) put Eglot, yaml-mode and markdown-mode on the
;; load-path; `-Q' skips both, so do it here: Debian's elpa-* folders first, so that their
;; Eglot, project, xref and seq win over older built-in versions.
;; A missing package is reported as "MISSING <package> (<how to install it>)" with exit status
;; 3, which tests/editors/test_editors.py turns into a skip with that reason.
(dolist (root '("/usr/share/emacs/site-lisp/elpa" "/usr/share/emacs/site-lisp/elpa-src"))
  (when (file-directory-p root)
    (dolist (dir (directory-files root t "\\`[^.]"))
      (when (file-directory-p dir)
        (add-to-list 'load-path dir)))))
(unless (require 'eglot nil t)
  (princ "MISSING eglot (Emacs 29+ has it; on Emacs 28: apt-get install elpa-eglot)\n")
  (kill-emacs 3))
(unless (require 'yaml-mode nil t)
  (princ "MISSING yaml-mode (apt-get install elpa-yaml-mode)\n")
  (kill-emacs 3))
(unless (require 'markdown-mode nil t)
  (princ "MISSING markdown-mode (apt-get install elpa-markdown-mode)\n")
  (kill-emacs 3))
;;; setup.el ends here
