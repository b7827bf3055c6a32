"""What a new user met going through each family's demo at 1280x720 (issue 34): the page
a demo lands on, and texts on the Compare pages that were cut or ran together."""
from conftest import wait_scored


def test_a_second_demo_lands_on_its_anatomy_not_on_fix_first(qtbot, window):
    """Reading qwk's anatomy, then opening the lwlrap demo: hiding qwk's page moved the tab
    widget to the next tab (Fix first) before the new anatomy was chosen."""
    with qtbot.waitSignal(window.controller.fixes_ready, timeout=30000):
        wait_scored(qtbot, window, lambda: window.open_demo("qwk"))
    tabs = window.tabs
    assert tabs.fixes is not None
    tabs.setCurrentWidget(tabs.view("qwk"))
    wait_scored(qtbot, window, lambda: window.open_demo("lwlrap"))
    assert tabs.currentWidget() is tabs.view("lwlrap")
    tabs.setCurrentWidget(tabs.fixes)        # Fix first open: the next files keep it
    wait_scored(qtbot, window, lambda: window.open_demo("auc"))
    assert tabs.currentWidget() is tabs.fixes
