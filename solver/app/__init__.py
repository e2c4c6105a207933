"""The application layer: the use cases every face runs, over typed requests.

The command line (:mod:`solver.cli`) and the web app (:mod:`solver.web`) are
two shells over this layer: each turns its input (arguments, JSON) into a
request of :mod:`solver.app.requests`, runs a use case and shows the
:class:`~solver.app.answers.Answer` (a JSON document made here once, a text
for people, and warnings as data).

=============================  ===============================================
use case                       module
=============================  ===============================================
suggest                        :mod:`solver.app.suggesting`
equilibrium, equilibrium play  :mod:`solver.app.solving`
grade, house, play a game      :mod:`solver.app.grading`
opponent models by name        :mod:`solver.play.registry`
computer players by name       :mod:`solver.play.players`
limits of counts               :mod:`solver.app.limits`
=============================  ===============================================
"""
