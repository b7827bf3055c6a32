"""The main window's unsaved-edits questions and saves: an edit is saved or asked
about, never lost ("Save" means saved before anything replaces the data)."""
from PySide6.QtWidgets import QMessageBox

from . import dialogs
from .file_actions import save_start


class UnsavedEdits:
    """Mixed into the main window (uses its session, controller and settings)."""

    def request_discard(self, then):
        """Run ``then`` once unsaved edits are saved or discarded (not on Cancel)."""
        if not self.session.dirty:
            then()
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.Save:
            path = self.ask_save_path()
            if path:
                self.save_then(path, then)                 # goes on once it is written
            return False
        if answer == QMessageBox.Discard:
            then()
            return True
        return False

    def save_then(self, path, then):
        """Save, then ``then()`` once written: no edit is taken in between (it would be
        lost: "Save" means what is saved is what there was)."""
        s = self.session
        s.hold("the edits are being saved before the data is replaced", "save")

        def go():
            s.release("save")
            then()
        if not self.controller.save_to(path, then=go, on_failed=lambda: s.release("save")):
            s.release("save")

    def ask_unsaved(self):
        s = self.session
        kept = ("Saving a submission never writes the solution's edits; a project keeps "
                "every edit (File > Save project as…).")
        if not s.submission_dirty:          # only the solution was edited: Save would not keep it
            return dialogs.ask(
                self, "Unsaved edits", f"The solution has edits. {kept} Discard them?",
                QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Cancel)
        text = "The submission has edits that are not saved. Save them?"
        if s.truth_edited:
            text += f" {kept}"
        return dialogs.ask(self, "Unsaved edits", text,
                           QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
                           QMessageBox.Save)

    def ask_save_path(self):
        start = save_start(self.session.sub_path, self.settings.value("last_folder", ""))
        from .dialogs import ask_submission_path     # refuses the solution in the dialog
        return ask_submission_path(self, start, self.session.truth_path, self.session.sub_path)

    def save_as(self):
        path = self.ask_save_path() if self.session.data is not None else ""
        if path:
            self.controller.save_to(path)

    def save_to(self, path, then=None):
        return self.controller.save_to(path, then)
