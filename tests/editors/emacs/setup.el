;;; setup.el --- what `emacs -Q --batch' needs before the docs/editors.md recipe  -*- lexical-binding: t -*-
;; A user's Emacs has package.el (or Debian's site-start) put Eglot and yaml-mode on the
;; load-path; `-Q' skips both, so do it here: Debian's elpa-* folders first, so that their
;; Eglot, project, xref and seq win over older built-in versions.
(dolist (root '("/usr/share/emacs/site-lisp/elpa" "/usr/share/emacs/site-lisp/elpa-src"))
  (when (file-directory-p root)
    (dolist (dir (directory-files root t "\\`[^.]"))
      (when (file-directory-p dir)
        (add-to-list 'load-path dir)))))
(require 'yaml-mode nil t)
(unless (featurep 'yaml-mode)
  (princ "FAIL setup: yaml-mode is not installed (apt-get install elpa-yaml-mode)\n")
  (kill-emacs 1))
;;; setup.el ends here
